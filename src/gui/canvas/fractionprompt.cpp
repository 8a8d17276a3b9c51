#include "gui/canvas/fractionprompt.h"

#include "gui/canvas/canvasstyle.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace weft {

std::optional<double> parseFraction(const QString &text, const QString &field, QString *error)
{
    QString t = text.trimmed();
    double scale = 1;
    if (t.endsWith(u'%')) {
        t.chop(1);
        scale = 0.01;
    }
    bool ok = false;
    const double v = t.trimmed().toDouble(&ok) * scale;
    if (!ok || !(v > 0) || v > 1) {
        if (error)
            *error = FractionDialog::tr("%1: enter a number greater than 0 and at most 1 (0.5 or "
                                        "50% is half), not \"%2\".")
                         .arg(field, text.trimmed());
        return std::nullopt;
    }
    return v;
}

FractionDialog::FractionDialog(const QString &title, const QString &field, double initial,
                               QWidget *parent)
    : QDialog(parent)
    , m_field(field)
    , m_edit(new QLineEdit(QString::number(initial)))
    , m_error(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    setWindowTitle(title);
    setObjectName(QStringLiteral("FractionDialog"));
    m_edit->setObjectName(QStringLiteral("fraction"));
    m_edit->setToolTip(tr("A number in (0, 1]: 0.5 keeps half, 1 the whole (no degradation)."));
    m_error->setObjectName(QStringLiteral("fractionError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1")
                               .arg(CanvasStyle::fromPalette(palette())
                                        .faultDown.name())); // readable on light and dark
    auto *form = new QFormLayout;
    form->addRow(field, m_edit);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_edit, &QLineEdit::textChanged, this, &FractionDialog::validate);
    m_edit->selectAll();
    validate();
}

std::optional<double> FractionDialog::value() const
{
    return parseFraction(m_edit->text(), m_field, nullptr);
}

QString FractionDialog::errorText() const
{
    return m_error->text();
}

void FractionDialog::validate()
{
    QString error;
    const bool ok = parseFraction(m_edit->text(), m_field, &error).has_value();
    m_error->setText(ok ? QString() : error);
    m_error->setVisible(!ok);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

std::optional<double> FractionDialog::ask(QWidget *parent, const QString &title,
                                          const QString &field, double initial)
{
    FractionDialog dialog(title, field, initial, parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return dialog.value();
}

} // namespace weft
