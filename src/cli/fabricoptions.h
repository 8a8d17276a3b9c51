#pragma once
// The fabric flags of `weft-cli generate` (issue 2, Command line), kept apart from the command
// so other flag families (workload: --model, --tp ...) can be added to the same parser.

#include "model/catalog.h"
#include "model/fabricparams.h"

#include <QCommandLineParser>
#include <QString>

namespace weft::cli {

/// Adds --scaleup, --domains, --fabric, --tiers, --switch, --nic-gbps, --oversubscription,
/// --planes, --su-size and --catalog to `parser`; each description gives unit and default.
void addFabricOptions(QCommandLineParser &parser, const Catalog &catalog);

/// The catalog the fabric flags refer to: the built-in one plus the file given with
/// --catalog (user entries override built-ins by key). Empty `error` on success.
Catalog fabricCatalog(const QCommandLineParser &parser, QString &error);

/// Reads the fabric flags of a parsed `parser` into `params` (unset flags keep
/// FabricParams defaults; --nic-gbps defaults to the preset's NIC rate). Returns a message
/// naming the flag and the accepted values when one is malformed or names a scale-up preset or
/// switch that `catalog` lacks, else an empty string (a usage error, not a fabric that does not
/// fit). Whether the fabric fits is not checked here (generateFabric does that).
QString readFabricOptions(const QCommandLineParser &parser, const Catalog &catalog,
                          FabricParams &params);

} // namespace weft::cli
