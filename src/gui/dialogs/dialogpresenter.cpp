#include "gui/dialogs/dialogpresenter.h"

#include <QFileDialog>
#include <QPushButton>

namespace weft {

namespace {
DialogPresenter *g_presenter = nullptr;
const QString kFilter = QObject::tr("Weft designs (*.weft);;All files (*)");
} // namespace

void DialogPresenter::showError(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void DialogPresenter::showReport(QWidget *parent, const QString &title, const QString &text,
                                 const QStringList &details)
{
    auto *box = new QMessageBox(QMessageBox::Information, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setDetailedText(details.join(QLatin1Char('\n')));
    box->open();
}

QMessageBox::StandardButton DialogPresenter::askSaveChanges(QWidget *parent,
                                                            const QString &document)
{
    return QMessageBox::warning(parent, QObject::tr("Unsaved changes"),
                                QObject::tr("Save the changes to %1 before closing?").arg(document),
                                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                QMessageBox::Save);
}

// Restore is the default; Later (also Escape and closing the box) keeps the autosaves for the
// next start: "No" deleted them at once, without a second question.
DialogPresenter::RestoreAnswer DialogPresenter::askRestore(QWidget *parent,
                                                           const QStringList &documents)
{
    QMessageBox box(QMessageBox::Question, QObject::tr("Restore unsaved work?"),
                    QObject::tr("Weft did not close cleanly last time. Restore the autosaved "
                                "designs?\n\n%1\n\nLater keeps them and asks again at the next "
                                "start.")
                        .arg(documents.join(QLatin1Char('\n'))),
                    QMessageBox::NoButton, parent);
    QPushButton *restore = box.addButton(QObject::tr("&Restore"), QMessageBox::AcceptRole);
    QPushButton *discard = box.addButton(QObject::tr("&Discard..."), QMessageBox::DestructiveRole);
    QPushButton *later = box.addButton(QObject::tr("&Later"), QMessageBox::RejectRole);
    box.setDefaultButton(restore);
    box.setEscapeButton(later);
    box.exec();
    if (box.clickedButton() == restore)
        return RestoreAnswer::Restore;
    return box.clickedButton() == discard ? RestoreAnswer::Discard : RestoreAnswer::Later;
}

bool DialogPresenter::askConfirm(QWidget *parent, const QString &title, const QString &text)
{
    return QMessageBox::question(parent, title, text) == QMessageBox::Yes;
}

QString DialogPresenter::openFileName(QWidget *parent, const QString &directory)
{
    return QFileDialog::getOpenFileName(parent, QObject::tr("Open design"), directory, kFilter);
}

QString DialogPresenter::saveFileName(QWidget *parent, const QString &suggestion)
{
    QString path
        = QFileDialog::getSaveFileName(parent, QObject::tr("Save design"), suggestion, kFilter);
    if (!path.isEmpty() && !path.endsWith(QLatin1String(".weft")))
        path += QLatin1String(".weft");
    return path;
}

QString DialogPresenter::exportFileName(QWidget *parent, const QString &title,
                                        const QString &suggestion, const QString &filter)
{
    return QFileDialog::getSaveFileName(parent, title, suggestion, filter);
}

DialogPresenter &dialogPresenter()
{
    static DialogPresenter fallback;
    return g_presenter ? *g_presenter : fallback;
}

void setDialogPresenter(DialogPresenter *presenter)
{
    g_presenter = presenter;
}

} // namespace weft
