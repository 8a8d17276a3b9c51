#include "gui/dialogs/aboutdialog.h"

#include "io/libraryversions.h"
#include "ui_aboutdialog.h"

#include <QApplication>
#include <QIcon>

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

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::AboutDialog>())
{
    m_ui->setupUi(this);
    m_ui->icon->setPixmap(QIcon(QStringLiteral(":/weft/icons/weft.svg")).pixmap(64, 64));
    m_ui->aboutText->setText(aboutText());
}

AboutDialog::~AboutDialog() = default;

} // namespace weft
