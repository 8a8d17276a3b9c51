#pragma once
// The text format of `ibnetdiscover` (infiniband-diags), which is also what `ibsim` reads as a
// net file: one record per node, a header line and one line per connected port.
//
//   Switch  41 "S-0000000000200000"   # "leaf-1" base port 0 lid 1 lmc 0
//   [1]     "H-0000000000100000"[1](100001)   # "dgx-001 mlx5_0" lid 5 4xHDR
//   Ca      2 "H-0000000000100000"    # "dgx-001 mlx5_0"
//   [1](100001)  "S-0000000000200000"[1]  # lid 5 lmc 0 "leaf-1" lid 1 4xHDR
//
// Lines starting with '#' are comments; `vendid=`, `devid=`, `sysimgguid=`, `switchguid=`,
// `caguid=` and `rtguid=` assignments are accepted and ignored. A port line's trailing
// `<width>x<speed>` token (4xHDR, 2xNDR, 1xSDR...) gives the active link width and speed; ibsim's
// hand-written net files may leave it out (then width 0, speed empty). Only connected (LinkUp)
// ports are listed by ibnetdiscover, so a down cable is a port missing from both records.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

enum class IbNodeType { Switch, Ca, Router };

/// One connected port of a node: [port] "remote id"[remote port].
struct IbPort
{
    int port = 0;
    std::string remoteId; ///< node id of the remote end ("S-...", "H-..." or an ibsim name)
    int remotePort = 0;
    int width = 0; ///< active width in lanes (1, 2, 4, 8, 12); 0 when the line gives none
    std::string speed; ///< "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"
    int line = 0; ///< 1-based line in the source text (0 when built in memory)
};

/// One node record.
struct IbNode
{
    IbNodeType type = IbNodeType::Switch;
    std::string id; ///< quoted node id of the header ("S-<guid>" from ibnetdiscover)
    int ports = 0; ///< number of ports the header declares
    std::string description; ///< NodeDescription from the comment; the id when absent
    std::vector<IbPort> links; ///< connected ports in file order
    int line = 0;
};

/// A whole discovered (or described) subnet, records in file order.
struct IbFabric
{
    std::vector<IbNode> nodes;
};

/// Outcome of parseIbnetdiscover(): the fabric, or the first problem with its line number.
struct IbParseResult
{
    std::optional<IbFabric> fabric;
    int errorLine = 0; ///< 1-based line of the problem
    std::string error; ///< "line 12: port line outside a node record"
    /// What was skipped: lines before the first record that are not ibnetdiscover's (a shell
    /// prompt, a tool's warning on stderr, `-v` progress lines), with the first of them.
    std::vector<std::string> notes;
    [[nodiscard]] bool ok() const { return fabric.has_value(); }
};

/// Parses ibnetdiscover output or an ibsim net file, or ibnetdiscover's ports report
/// (`ibnetdiscover -p`, parseIbPortsReport), whichever the text is. Never throws; refuses unknown
/// lines inside or after the records, port lines outside a record, port numbers outside
/// [0, ports] or listed twice, duplicate node ids and malformed headers, naming the line. A UTF-8
/// byte-order mark, the chassis grouping lines of `ibnetdiscover -g` ("Chassis N ...",
/// "Non-Chassis Nodes") and unknown lines before the first record are skipped (the latter said
/// in `notes`). Linear time (a 16k-GPU fabric, ~170k lines, parses in well under a second).
IbParseResult parseIbnetdiscover(std::string_view text);

/// True when the first data line of `text` is a ports-report line ("CA 134 1 0x7cfe... 4x EDR
/// - SW 2 19 0x... ( 'desc' - 'desc' )").
bool isIbPortsReport(std::string_view text);

/// Parses the ports report of `ibnetdiscover -p` (infiniband-diags, one line per port: type
/// CA/SW/RT, LID, port, port GUID, width, speed, then "- " and the remote port's type, LID, port
/// and GUID with both node descriptions in "( '...' - '...' )", or only the node's description
/// for a port without a peer). Nodes are keyed by GUID ("S-"/"H-"/"R-" + 16 hex digits; a CA's
/// ports are its port GUIDs, so each HCA port is a node of its own, as the report gives no node
/// GUID), their port count is the highest port listed; "??" / "???" widths and speeds are
/// unknown (the importer takes the file's usual rate). "DR path ..." progress lines of
/// `ibnetdiscover -v` are skipped. Errors name the line.
IbParseResult parseIbPortsReport(std::string_view text);

/// Data rate of one lane at `speed`, bytes/s, or 0 for an unknown speed. The names and the per-4x
/// rates (SDR 10, DDR 20, QDR 40, FDR10 40, FDR 56, EDR 100, HDR 200, NDR 400, XDR 800 Gb/s) are
/// those of ibnetdiscover and the InfiniBand Trade Association roadmap; Weft's catalog rates
/// (ib-hdr 200, ib-ndr 400, ib-xdr 800 Gb/s per 4x cable) follow the same convention.
double ibLaneRate(std::string_view speed);

/// The speed name whose 4x rate is `rate4x` bytes/s ("HDR" for 25e9), or empty.
std::string ibSpeedForRate(double rate4x);

/// How writeIbnetdiscover() names nodes.
enum class IbTextStyle {
    Ibnetdiscover, ///< ids as given (S-/H-<guid>), lids, vendid/devid lines, as ibnetdiscover
    IbsimNet ///< node ids are the descriptions (unique, human-readable), as ibsim's examples
};

/// Writes `fabric` in ibnetdiscover's layout. Every port line carries the `# ... lid N WxSPEED`
/// comment, which ibsim also reads to set the port's enabled width and speed (ibsim 0.10 knows
/// SDR to HDR; NDR and XDR ports come up at its default SDR). Deterministic.
std::string writeIbnetdiscover(const IbFabric &fabric, IbTextStyle style);

} // namespace weft
