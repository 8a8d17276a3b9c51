#include "gui/widgets/unitfield.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>

namespace weft {

UnitField::UnitField(const QString &unit, double minimum, double maximum, bool minimumExclusive,
                     QWidget *parent)
    : QWidget(parent)
    , m_edit(new QLineEdit)
    , m_unit(new QLabel(unit))
    , m_min(minimum)
    , m_max(maximum)
    , m_minExclusive(minimumExclusive)
{
    auto *lay = new QHBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_edit, 1);
    m_unit->setMinimumWidth(m_unit->fontMetrics().horizontalAdvance(QStringLiteral("Gb/s")));
    lay->addWidget(m_unit);
    setFocusProxy(m_edit);
    connect(m_edit, &QLineEdit::textEdited, this, &UnitField::validate);
    connect(m_edit, &QLineEdit::editingFinished, this, [this] {
        const auto v = value();
        if (v && (!m_shown || *v != *m_shown)) {
            m_shown = v;
            emit committed(*v);
        }
    });
}

void UnitField::setValue(std::optional<double> value)
{
    m_shown = value;
    m_edit->setText(value ? QLocale().toString(*value, 'g', 8) : QString());
    m_edit->setPlaceholderText(value ? QString() : tr("mixed"));
    validate();
}

std::optional<double> UnitField::value() const
{
    bool ok = false;
    const double v = QLocale().toDouble(m_edit->text().trimmed(), &ok);
    if (!ok || v > m_max || v < m_min || (m_minExclusive && v == m_min))
        return std::nullopt;
    return v;
}

void UnitField::validate()
{
    const bool empty = m_edit->text().trimmed().isEmpty();
    m_valid = empty || value().has_value();
    const QString range
        = m_minExclusive ? tr("greater than %1").arg(m_min) : tr("at least %1").arg(m_min);
    m_edit->setToolTip(m_valid ? QString()
                               : tr("Enter a number %1 and at most %2 (%3).")
                                     .arg(range, QLocale().toString(m_max), m_unit->text()));
    m_edit->setStyleSheet(m_valid ? QString()
                                  : QStringLiteral("QLineEdit { border: 2px solid #d55e00; }"));
}

} // namespace weft
