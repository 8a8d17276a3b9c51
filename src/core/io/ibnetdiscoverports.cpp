// ibnetdiscover's ports report (`ibnetdiscover -p`): see parseIbPortsReport in ibnetdiscover.h.
#include "io/ibnetdiscover.h"
#include "io/textlines.h"

#include <cctype>
#include <charconv>
#include <map>
#include <set>

namespace weft {

namespace {

std::vector<std::string_view> words(std::string_view s, std::size_t max)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (out.size() < max) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        if (i == s.size())
            break;
        std::size_t j = i;
        while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])))
            ++j;
        out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

bool number(std::string_view w, int &out)
{
    const auto r = std::from_chars(w.data(), w.data() + w.size(), out);
    return r.ec == std::errc() && r.ptr == w.data() + w.size();
}

/// "0x0002c903004e26b1" -> "0002c903004e26b1" (16 digits, lower case), empty when not a GUID.
std::string guidDigits(std::string_view w)
{
    if (w.size() < 3 || w.size() > 18 || w[0] != '0' || (w[1] != 'x' && w[1] != 'X'))
        return {};
    std::string d;
    for (const char c : w.substr(2)) {
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return {};
        d += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return std::string(16 - d.size(), '0') + d;
}

bool nodeType(std::string_view w, IbNodeType &t, char &prefix)
{
    if (w == "SW")
        t = IbNodeType::Switch, prefix = 'S';
    else if (w == "CA")
        t = IbNodeType::Ca, prefix = 'H';
    else if (w == "RT")
        t = IbNodeType::Router, prefix = 'R';
    else
        return false;
    return true;
}

/// Width "4x" -> 4; "??" or anything else -> 0.
int width(std::string_view w)
{
    int n = 0;
    if (w.size() >= 2 && (w.back() == 'x' || w.back() == 'X')
        && number(w.substr(0, w.size() - 1), n))
        return n;
    return 0;
}

std::string trimmed(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return std::string(s);
}

/// The first four words of a port: type, LID, port, GUID.
struct PortId
{
    IbNodeType type = IbNodeType::Ca;
    std::string id; ///< "S-<guid>"
    int port = 0;
};

bool portId(const std::vector<std::string_view> &w, std::size_t at, PortId &out)
{
    char prefix = 'H';
    int lid = 0;
    if (w.size() < at + 4 || !nodeType(w[at], out.type, prefix) || !number(w[at + 1], lid)
        || !number(w[at + 2], out.port))
        return false;
    const std::string g = guidDigits(w[at + 3]);
    if (g.empty())
        return false;
    out.id = std::string(1, prefix) + "-" + g;
    return true;
}

bool isDrPath(std::string_view s)
{
    return s.substr(0, 8) == "DR path ";
}

} // namespace

bool isIbPortsReport(std::string_view text)
{
    // The first 64 lines that are neither blank, comments nor -v progress lines decide.
    int seen = 0;
    bool report = false;
    forEachLine(text, [&](std::string_view line, int) {
        const std::vector<std::string_view> w = words(line, 4);
        if (w.empty() || w[0].front() == '#' || isDrPath(line))
            return true;
        PortId p;
        report = portId(w, 0, p);
        return !report && ++seen < 64;
    });
    return report;
}

IbParseResult parseIbPortsReport(std::string_view text)
{
    IbParseResult r;
    std::map<std::string, std::size_t> index; // node id -> position in the fabric
    std::set<std::pair<std::string, int>> listed; // (node id, port) seen
    IbFabric fabric;
    SkippedLines skipped;
    int progress = 0;
    const auto nodeOf = [&](const PortId &p, const std::string &description, int line) -> IbNode & {
        const auto [it, added] = index.emplace(p.id, fabric.nodes.size());
        if (added) {
            IbNode n;
            n.type = p.type;
            n.id = p.id;
            n.line = line;
            n.description = description.empty() ? p.id : description;
            fabric.nodes.push_back(std::move(n));
        }
        IbNode &n = fabric.nodes[it->second];
        n.ports = std::max(n.ports, p.port);
        return n;
    };
    const int lines = forEachLine(text, [&](std::string_view s, int line) {
        const std::vector<std::string_view> w = words(s, 11);
        if (w.empty() || w[0].front() == '#')
            return true;
        if (isDrPath(s)) {
            ++progress;
            return true;
        }
        const std::string where = "line " + std::to_string(line) + ": ";
        PortId self;
        if (!portId(w, 0, self) || w.size() < 6) {
            if (fabric.nodes.empty()) {
                skipped.skip(line, s);
                return true;
            }
            r.errorLine = line;
            r.error = where
                + "not a ports-report line (expected \"TYPE LID PORT GUID WIDTH "
                  "SPEED [- TYPE LID PORT GUID ( 'desc' - 'desc' )]\")";
            return false;
        }
        if (self.port < 0 || self.port > 255
            || (self.port == 0 && self.type != IbNodeType::Switch)) {
            r.errorLine = line;
            r.error = where + "port " + std::to_string(self.port) + " outside 1..255";
            return false;
        }
        const std::size_t quote = s.find('\'');
        const std::size_t split = s.find("' - '");
        const std::size_t close = s.rfind('\'');
        PortId peer;
        const bool linked = w.size() >= 11 && w[6] == "-";
        if (linked && !portId(w, 7, peer)) {
            r.errorLine = line;
            r.error = where + "malformed remote port after \"-\"";
            return false;
        }
        std::string desc;
        if (quote != std::string_view::npos && close > quote)
            desc = trimmed(
                s.substr(quote + 1,
                         (linked && split != std::string_view::npos ? split : close) - quote - 1));
        IbNode &n = nodeOf(self, desc, line);
        if (!linked)
            return true; // a port without a peer: only its number counts
        if (peer.port < 1 || peer.port > 255) {
            r.errorLine = line;
            r.error = where + "remote port " + std::to_string(peer.port) + " outside 1..255";
            return false;
        }
        if (!listed.emplace(self.id, self.port).second) {
            r.errorLine = line;
            r.error = where + "port " + std::to_string(self.port) + " of \"" + self.id
                + "\" is listed twice";
            return false;
        }
        IbPort p;
        p.port = self.port;
        p.remoteId = peer.id;
        p.remotePort = peer.port;
        p.width = width(w[4]);
        if (ibLaneRate(w[5]) > 0)
            p.speed = std::string(w[5]);
        p.line = line;
        n.links.push_back(std::move(p));
        // The peer is a node too, even if its own lines are missing (a partial report).
        std::string peerDesc;
        if (split != std::string_view::npos && close > split + 5)
            peerDesc = trimmed(s.substr(split + 5, close - split - 5));
        nodeOf(peer, peerDesc, line);
        return true;
    });
    if (r.errorLine > 0)
        return r;
    if (fabric.nodes.empty()) {
        r.errorLine = lines;
        r.error = "no port line found" + skipped.suffix() + " (is this ibnetdiscover -p output?)";
        return r;
    }
    skipped.note(r.notes);
    if (progress > 0)
        r.notes.push_back("skipped " + std::to_string(progress)
                          + " \"DR path\" progress line(s) of ibnetdiscover -v");
    r.fabric = std::move(fabric);
    return r;
}

} // namespace weft
