#include "gui/dialogs/customhardwaredialog.h"

#include "gui/widgets/unitfield.h"
#include "ui_customhardwaredialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <cmath>

namespace weft {

namespace {

// Display units: the core keeps SI (FLOP/s, bytes, bytes/s); the form shows datasheet units.
constexpr double kTera = 1e12; // TFLOP/s
constexpr double kGiga = 1e9; // GB, GB/s
constexpr double kGbps = 1e9 / 8; // bytes/s per Gb/s

const Technology kSwitchTechs[]
    = {Technology::InfiniBand, Technology::Ethernet, Technology::NVLink};

QString techLabel(Technology t)
{
    switch (t) {
    case Technology::InfiniBand:
        return QObject::tr("InfiniBand (scale-out)");
    case Technology::Ethernet:
        return QObject::tr("Ethernet / RoCE (scale-out)");
    case Technology::NVLink:
        return QObject::tr("NVLink (scale-up switch chip)");
    default:
        return QString::fromLatin1(toString(t));
    }
}

} // namespace

CustomHardwareDialog::CustomHardwareDialog(const AcceleratorSpec &spec, QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::CustomHardwareDialog>())
    , m_kind(Kind::Accelerator)
    , m_acc(spec)
{
    build(spec.key.empty() ? tr("New custom accelerator") : tr("Edit custom accelerator"));
    m_name->setText(QString::fromStdString(spec.name));
    m_name->setPlaceholderText(tr("e.g. My accelerator 96GB"));
    addNumber(QStringLiteral("bf16"), tr("Peak dense BF16:"), tr("TFLOP/s"), 0, 1e6, true,
              spec.peakFlopsBf16 / kTera, tr("Dense (not sparse) BF16 tensor throughput."));
    addNumber(QStringLiteral("fp8"), tr("Peak dense FP8:"), tr("TFLOP/s"), 0, 1e6, false,
              spec.peakFlopsFp8 / kTera, tr("0: no FP8 support (FP8 runs use the BF16 peak)."));
    addNumber(QStringLiteral("hbm"), tr("HBM capacity:"), tr("GB"), 0, 1e5, true,
              spec.hbmBytes / kGiga, tr("Device memory, 1 GB = 10⁹ bytes."));
    addNumber(QStringLiteral("hbm_bandwidth"), tr("HBM bandwidth:"), tr("GB/s"), 0, 1e6, true,
              spec.hbmBandwidth / kGiga, tr("Peak memory bandwidth."));
    addNumber(QStringLiteral("scale_up"), tr("Scale-up bandwidth (per direction):"), tr("GB/s"), 0,
              1e5, false, spec.scaleUpBandwidth / kGiga,
              tr("NVLink / Infinity Fabric bandwidth per direction (half the bidirectional "
                 "figure of datasheets); 0: no scale-up links."));
    addNumber(QStringLiteral("matmul"), tr("GEMM efficiency:"), tr("%"), 0, 100, true,
              spec.matmulEfficiency * 100, tr("Achievable fraction of peak in large GEMMs."));
    addNumber(QStringLiteral("sustained_clock"), tr("Sustained clock:"), tr("%"), 0, 100, true,
              spec.sustainedClock * 100,
              tr("Tensor throughput a whole node holds under sustained load, as a fraction of "
                 "the burst the GEMM efficiency was measured in (MSMF / MAMF; Hopper 84.8%, "
                 "Blackwell 81.5%). 100: the GEMM efficiency is already a sustained figure."));
    addNumber(QStringLiteral("memory"), tr("Memory efficiency:"), tr("%"), 0, 100, true,
              spec.memoryEfficiency * 100, tr("Achievable fraction of HBM bandwidth."));
    addNumber(QStringLiteral("host_launch"), tr("Host launch factor:"), tr("×"), 0, 100, true,
              spec.hostLaunchFactor,
              tr("Host CPU time per kernel launch relative to a DGX H100's Xeon 8480C, which "
                 "multiplies the workload's launch overhead (1: x86 DGX/HGX hosts; Grace "
                 "superchips 2.75, TransformerEngine issue 2053)."));
    alignUnits();
    revalidate();
}

CustomHardwareDialog::CustomHardwareDialog(const SwitchSpec &spec, QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::CustomHardwareDialog>())
    , m_kind(Kind::Switch)
    , m_sw(spec)
{
    build(spec.key.empty() ? tr("New custom switch") : tr("Edit custom switch"));
    m_name->setText(QString::fromStdString(spec.name));
    m_name->setPlaceholderText(tr("e.g. My 51.2T switch"));
    m_tech = new QComboBox;
    for (const Technology t : kSwitchTechs)
        m_tech->addItem(techLabel(t), int(t));
    m_tech->setCurrentIndex(std::max(0, m_tech->findData(int(spec.technology))));
    addRow(tr("Technology:"), m_tech);
    addNumber(QStringLiteral("radix"), tr("Radix:"), tr("ports"), 1, 65536, false, spec.radix,
              tr("Ports at the port speed below (a 64 × 800G switch has radix 64)."));
    addNumber(QStringLiteral("port"), tr("Port speed:"), tr("Gb/s"), 0, 1e5, true,
              spec.portRate / kGbps, tr("Line rate of one port per direction."));
    m_reduction = new QCheckBox(tr("In-network reduction (SHARP / NVLS)"));
    m_reduction->setChecked(spec.inNetworkReduction);
    addRow(QString(), m_reduction);
    UnitField *rate
        = addNumber(QStringLiteral("reduction"), tr("Reduction throughput:"), tr("GB/s"), 0, 1e5,
                    true, (spec.reductionRate > 0 ? spec.reductionRate : spec.portRate) / kGiga,
                    tr("In-switch reduction throughput per port."));
    rate->setEnabled(spec.inNetworkReduction);
    connect(m_reduction, &QCheckBox::toggled, this, [this, rate](bool on) {
        rate->setEnabled(on);
        revalidate();
    });
    alignUnits();
    revalidate();
}

void CustomHardwareDialog::build(const QString &title)
{
    m_ui->setupUi(this);
    setWindowTitle(title);
    m_form = m_ui->form;
    m_name = m_ui->name;
    m_source = m_ui->source;
    m_message = m_ui->message;
    m_buttons = m_ui->buttons;
    connect(m_name, &QLineEdit::textChanged, this, &CustomHardwareDialog::revalidate);
    m_source->setText(
        QString::fromStdString(m_kind == Kind::Accelerator ? m_acc.source : m_sw.source));
    // setText leaves the cursor at the end: a long datasheet reference showed its last words
    // ("... p. 12)") and not what it is. Start at the beginning.
    m_source->setCursorPosition(0);
}

void CustomHardwareDialog::addRow(const QString &label, QWidget *field)
{
    m_form->insertRow(m_form->rowCount() - 1, label, field); // Source stays last
}

UnitField *CustomHardwareDialog::addNumber(const QString &role, const QString &label,
                                           const QString &unit, double min, double max,
                                           bool minExclusive, double value, const QString &tip)
{
    auto *f = new UnitField(unit, min, max, minExclusive);
    f->setValue(value);
    f->lineEdit()->setObjectName(role);
    f->setToolTip(tip);
    connect(f->lineEdit(), &QLineEdit::textChanged, this, &CustomHardwareDialog::revalidate);
    addRow(label, f);
    m_fields.emplace_back(role, f);
    m_labels.push_back(label.chopped(1)); // without the colon
    return f;
}

void CustomHardwareDialog::alignUnits()
{
    // Same-width unit labels keep the number fields in one column.
    int widest = 0;
    for (const auto &[role, f] : m_fields)
        for (const QLabel *unit : f->findChildren<QLabel *>())
            widest = std::max(widest, unit->sizeHint().width());
    for (const auto &[role, f] : m_fields)
        for (QLabel *unit : f->findChildren<QLabel *>())
            unit->setMinimumWidth(widest);
}

QLineEdit *CustomHardwareDialog::field(const QString &role) const
{
    if (role == QLatin1String("name"))
        return m_name;
    if (role == QLatin1String("source"))
        return m_source;
    for (const auto &[r, f] : m_fields)
        if (r == role)
            return f->lineEdit();
    return nullptr;
}

QString CustomHardwareDialog::problem() const
{
    if (m_name->text().trimmed().isEmpty())
        return tr("Enter a name.");
    for (std::size_t i = 0; i < m_fields.size(); ++i) {
        const UnitField *f = m_fields[i].second;
        if (!f->isEnabled())
            continue;
        const QString &label = m_labels[i];
        if (f->lineEdit()->text().trimmed().isEmpty())
            return tr("%1: enter a value.").arg(label);
        if (!f->value())
            return tr("%1: %2").arg(label, f->lineEdit()->toolTip());
        if (m_fields[i].first == QLatin1String("radix") && *f->value() != std::floor(*f->value()))
            return tr("Radix: enter a whole number of ports.");
    }
    return {};
}

void CustomHardwareDialog::revalidate()
{
    const QString p = problem();
    m_message->setText(p.isEmpty() ? tr("Saved to your custom catalog; designs keep a copy of "
                                        "these figures.")
                                   : p);
    m_message->setStyleSheet(p.isEmpty() ? QString() : QStringLiteral("color: #d55e00;"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(p.isEmpty());
}

double CustomHardwareDialog::number(const char *role) const
{
    for (const auto &[r, f] : m_fields)
        if (r == QLatin1String(role))
            return f->value().value_or(0);
    return 0;
}

AcceleratorSpec CustomHardwareDialog::accelerator() const
{
    AcceleratorSpec s = m_acc;
    s.name = m_name->text().trimmed().toStdString();
    s.peakFlopsBf16 = number("bf16") * kTera;
    s.peakFlopsFp8 = number("fp8") * kTera;
    s.hbmBytes = number("hbm") * kGiga;
    s.hbmBandwidth = number("hbm_bandwidth") * kGiga;
    s.scaleUpBandwidth = number("scale_up") * kGiga;
    s.matmulEfficiency = number("matmul") / 100;
    s.sustainedClock = number("sustained_clock") / 100;
    s.memoryEfficiency = number("memory") / 100;
    s.hostLaunchFactor = number("host_launch");
    s.source = m_source->text().trimmed().toStdString();
    return s;
}

SwitchSpec CustomHardwareDialog::switchSpec() const
{
    SwitchSpec s = m_sw;
    s.name = m_name->text().trimmed().toStdString();
    s.technology = Technology(m_tech->currentData().toInt());
    s.radix = int(number("radix"));
    s.portRate = number("port") * kGbps;
    s.inNetworkReduction = m_reduction->isChecked();
    s.reductionRate = s.inNetworkReduction ? number("reduction") * kGiga : 0;
    s.source = m_source->text().trimmed().toStdString();
    return s;
}

CustomHardwareDialog::~CustomHardwareDialog() = default;

} // namespace weft
