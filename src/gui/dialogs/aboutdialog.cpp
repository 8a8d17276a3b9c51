#include "gui/dialogs/aboutdialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QIcon>
#include <QLabel>
#include <QVBoxLayout>

#include "io/libraryversions.h"

namespace weft {

QString AboutDialog::aboutText()
{
    const QString json = QString::fromStdString(jsonLibraryVersion());
    return tr("<h2>Weft %1</h2>"
              "<p>Designer and simulator for AI-cluster fabrics.</p>"
              "<p>Copyright &copy; the Weft developers. Weft is free software: you can "
              "redistribute it and/or modify it under the terms of the GNU General Public "
              "License as published by the Free Software Foundation, either version 3 of the "
              "License, or (at your option) any later version (GPL-3.0-or-later). It comes with "
              "ABSOLUTELY NO WARRANTY.</p>"
              "<h3>Third-party software</h3>"
              "<ul>"
              "<li><b>Qt %2</b> &mdash; The Qt Company Ltd. and contributors, used under the GNU "
              "LGPL version 3.</li>"
              "<li><b>QCustomPlot 2.1</b> &mdash; Emanuel Eichhammer, used under the GNU GPL "
              "version 3.</li>"
              "<li><b>nlohmann_json %3</b> &mdash; Niels Lohmann, used under the MIT licence.</li>"
              "</ul>")
        .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion()), json);
}

AboutDialog::AboutDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("About Weft"));
    auto *layout = new QVBoxLayout(this);
    auto *icon = new QLabel(this);
    icon->setPixmap(QIcon(QStringLiteral(":/weft/icons/weft.svg")).pixmap(64, 64));
    layout->addWidget(icon, 0, Qt::AlignHCenter);
    auto *text = new QLabel(aboutText(), this);
    text->setObjectName(QStringLiteral("aboutText"));
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextBrowserInteraction);
    text->setMinimumWidth(420);
    layout->addWidget(text);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace weft
