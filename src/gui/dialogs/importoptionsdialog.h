#pragma once
// ImportOptionsDialog (File > Import > ...): what the importer needs besides the file, as
// `weft-cli import` takes it: the GPU servers (a scale-up preset, "auto" from an NCCL topology
// file's GPUs, or one server's NCCL topology XML: --scaleup), for ibnetdiscover whether HCAs that
// are not GPU-server rails (storage, management) are left out (--drop-unknown), and for a Slurm
// topology, which has no rates, the link technology of every cable (--nic-tech). Until it, the
// GUI asked only for the preset: a Slurm import was always cabled as NDR InfiniBand and storage
// HCAs were always kept.

#include "io/fabricimport.h"

#include <QDialog>
#include <QString>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPushButton;

namespace weft {

struct Catalog;

/// The choices of the dialog (ImportActions::importFile).
struct ImportChoice
{
    QString preset = QStringLiteral("dgx-h100"); ///< scale-up preset key, "auto" (NCCL), or ""
    QString serverXml; ///< non-empty: the servers of this NCCL topology XML instead of a preset
    bool dropUnknown = false; ///< ibnetdiscover: leave non-GPU-server HCAs out
    QString nicTech = QStringLiteral("ib-ndr"); ///< Slurm: catalog link technology of every cable
};

class ImportOptionsDialog : public QDialog
{
    Q_OBJECT
public:
    /// Options for importing `file` (its name is shown) as `format` with `catalog`'s presets and
    /// link technologies.
    ImportOptionsDialog(ImportFormat format, const QString &file, const Catalog &catalog,
                        QWidget *parent = nullptr);

    /// The choices as they stand (the server XML only while "From an NCCL topology file" is
    /// picked).
    [[nodiscard]] ImportChoice choice() const;
    /// Whether OK can be pressed: an XML file is named when the servers come from one.
    [[nodiscard]] bool complete() const;

    QComboBox *servers; ///< presets; "auto" first for NCCL; "From an NCCL topology file" last
    QLineEdit *serverXml; ///< the XML, with a Browse... button beside it
    QCheckBox *dropUnknown; ///< ibnetdiscover only (null otherwise)
    QComboBox *nicTech; ///< Slurm only (null otherwise); item data: the catalog key

private:
    void update();
    [[nodiscard]] bool fromXml() const;

    ImportFormat m_format;
    QPushButton *m_browse, *m_ok;
};

} // namespace weft
