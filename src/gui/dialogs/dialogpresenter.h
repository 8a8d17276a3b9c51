#pragma once
// DialogPresenter: every question and message box the main window shows goes through this
// interface, so tests can answer without a modal event loop. The default implementation uses
// QMessageBox/QFileDialog; errors open window-modal without blocking the caller.

#include <QMessageBox>
#include <QString>
#include <QStringList>

class QWidget;

namespace weft {

class DialogPresenter
{
public:
    DialogPresenter() = default;
    virtual ~DialogPresenter() = default;
    DialogPresenter(const DialogPresenter &) = delete;
    DialogPresenter &operator=(const DialogPresenter &) = delete;

    /// Shows an error (does not block; the dialog deletes itself when closed).
    virtual void showError(QWidget *parent, const QString &title, const QString &text);
    /// Shows what an operation found (an import's counts and notes): `text` and, behind
    /// "Show Details...", every line of `details` (does not block; deletes itself when closed).
    virtual void showReport(QWidget *parent, const QString &title, const QString &text,
                            const QStringList &details);
    /// Save / Discard / Cancel for a document with unsaved changes.
    virtual QMessageBox::StandardButton askSaveChanges(QWidget *parent, const QString &document);
    /// What to do with the autosaved documents listed (after a crash): restore them, discard
    /// them (the caller confirms first) or decide later (closing the question keeps them).
    enum class RestoreAnswer { Restore, Discard, Later };
    virtual RestoreAnswer askRestore(QWidget *parent, const QStringList &documents);
    /// Yes/No question (e.g. "Delete the custom entry X?"); true for Yes.
    virtual bool askConfirm(QWidget *parent, const QString &title, const QString &text);
    /// A design file to open ("" when cancelled).
    virtual QString openFileName(QWidget *parent, const QString &directory);
    /// A path to save to ("" when cancelled).
    virtual QString saveFileName(QWidget *parent, const QString &suggestion);
    /// A path to export to with `filter` (e.g. "SVG (*.svg);;PDF (*.pdf)"); "" when cancelled.
    virtual QString exportFileName(QWidget *parent, const QString &title, const QString &suggestion,
                                   const QString &filter);
};

/// The presenter used by new main windows (tests install their own).
DialogPresenter &dialogPresenter();
/// Replaces the presenter (nullptr restores the default); the caller keeps ownership.
void setDialogPresenter(DialogPresenter *presenter);

} // namespace weft
