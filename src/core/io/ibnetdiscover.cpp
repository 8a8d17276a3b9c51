#include "io/ibnetdiscover.h"

#include "io/textlines.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace weft {

namespace {

struct SpeedRate
{
    const char *name;
    double gbps4x; ///< data rate of a 4x link, Gb/s
};

// ibnetdiscover's speed names (infiniband-diags, ibnetdisc: dump_linkspeed) with the 4x data
// rates of the IBTA roadmap.
constexpr std::array<SpeedRate, 9> kSpeeds {{{"SDR", 10},
                                             {"DDR", 20},
                                             {"QDR", 40},
                                             {"FDR10", 40},
                                             {"FDR", 56},
                                             {"EDR", 100},
                                             {"HDR", 200},
                                             {"NDR", 400},
                                             {"XDR", 800}}};

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

void skipSpace(std::string_view &s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
}

bool readInt(std::string_view &s, int &out)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    if (r.ec != std::errc())
        return false;
    s.remove_prefix(static_cast<std::size_t>(r.ptr - s.data()));
    return true;
}

bool readQuoted(std::string_view &s, std::string &out)
{
    if (s.empty() || s.front() != '"')
        return false;
    const std::size_t end = s.find('"', 1);
    if (end == std::string_view::npos)
        return false;
    out.assign(s.substr(1, end - 1));
    s.remove_prefix(end + 1);
    return true;
}

/// "[12]" -> 12; also skips a following "[ext N]" (switch ports behind an extension).
bool readBracketPort(std::string_view &s, int &port)
{
    if (s.empty() || s.front() != '[')
        return false;
    s.remove_prefix(1);
    if (!readInt(s, port) || s.empty() || s.front() != ']')
        return false;
    s.remove_prefix(1);
    if (startsWith(s, "[ext ")) {
        const std::size_t end = s.find(']');
        if (end == std::string_view::npos)
            return false;
        s.remove_prefix(end + 1);
    }
    return true;
}

/// Skips "(portguid)".
void skipParenthesis(std::string_view &s)
{
    if (!s.empty() && s.front() == '(') {
        const std::size_t end = s.find(')');
        s.remove_prefix(end == std::string_view::npos ? s.size() : end + 1);
    }
}

/// The description of a header comment: the first quoted string after '#', else the text up to
/// " base port", " enhanced port" or " lid" (as ibsim's parser).
std::string headerDescription(std::string_view rest)
{
    const std::size_t hash = rest.find('#');
    if (hash == std::string_view::npos)
        return {};
    rest.remove_prefix(hash + 1);
    skipSpace(rest);
    std::string desc;
    if (readQuoted(rest, desc))
        return desc;
    for (const std::string_view stop : {" enhanced port ", " base port ", " lid ", " lmc "})
        if (const std::size_t p = rest.find(stop); p != std::string_view::npos)
            rest = rest.substr(0, p);
    return std::string(rest);
}

/// The last "<width>x<SPEED>" token of a port comment, outside quotes.
void linkWidthSpeed(std::string_view rest, int &width, std::string &speed)
{
    const std::size_t hash = rest.find('#');
    if (hash == std::string_view::npos)
        return;
    rest.remove_prefix(hash + 1);
    bool quoted = false;
    std::size_t i = 0;
    while (i < rest.size()) {
        if (rest[i] == '"') {
            quoted = !quoted;
            ++i;
            continue;
        }
        if (quoted || std::isspace(static_cast<unsigned char>(rest[i]))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < rest.size() && !std::isspace(static_cast<unsigned char>(rest[j]))
               && rest[j] != '"')
            ++j;
        const std::string_view tok = rest.substr(i, j - i);
        const std::size_t x = tok.find('x');
        int w = 0;
        if (x != std::string_view::npos && x > 0 && x + 1 < tok.size()
            && std::from_chars(tok.data(), tok.data() + x, w).ptr == tok.data() + x
            && std::isupper(static_cast<unsigned char>(tok[x + 1]))) {
            width = w;
            speed.assign(tok.substr(x + 1));
        }
        i = j;
    }
}

class Parser
{
public:
    explicit Parser(std::string_view text)
        : m_text(text)
    {
    }

    IbParseResult run()
    {
        IbParseResult r;
        const int line = forEachLine(m_text, [&](std::string_view s, int number) {
            if (parseLine(s, number))
                return true;
            if (m_fabric.nodes.empty() && m_unknownLine) { // before the first record
                m_preamble.skip(number, s);
                return true;
            }
            r.errorLine = number;
            r.error = "line " + std::to_string(number) + ": " + m_error;
            return false;
        });
        if (r.errorLine > 0)
            return r;
        if (m_fabric.nodes.empty()) {
            r.errorLine = line;
            r.error = "no Switch or Ca record found" + m_preamble.suffix()
                + " (is this ibnetdiscover output?)";
            return r;
        }
        m_preamble.note(r.notes);
        if (m_text.back() != '\n') // ibnetdiscover ends every line
            r.notes.push_back("the file ends in the middle of line " + std::to_string(line)
                              + " (no final newline): is the capture truncated?");
        r.fabric = std::move(m_fabric);
        return r;
    }

private:
    bool fail(std::string msg)
    {
        m_error = std::move(msg);
        return false;
    }

    bool parseLine(std::string_view s, int line)
    {
        m_unknownLine = false;
        skipSpace(s);
        if (s.empty()) {
            m_current = nullptr;
            return true;
        }
        if (s.front() == '#')
            return true;
        // ibnetdiscover -g groups the records under chassis lines.
        if (startsWith(s, "Chassis ") || startsWith(s, "Non-Chassis Nodes")) {
            m_current = nullptr;
            return true;
        }
        for (const std::string_view key :
             {"vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid=", "rtguid="})
            if (startsWith(s, key))
                return true;
        if (s.front() == '[')
            return parsePort(s, line);
        return parseHeader(s, line);
    }

    bool parseHeader(std::string_view s, int line)
    {
        IbNode n;
        n.line = line;
        std::size_t word = 0;
        while (word < s.size() && std::isalpha(static_cast<unsigned char>(s[word])))
            ++word;
        const std::string_view type = s.substr(0, word);
        if (type == "Switch")
            n.type = IbNodeType::Switch;
        else if (type == "Ca" || type == "Hca")
            n.type = IbNodeType::Ca;
        else if (type == "Rt")
            n.type = IbNodeType::Router;
        else {
            m_unknownLine = true;
            return fail("unrecognised line \"" + std::string(s.substr(0, 40))
                        + "\" (expected a Switch/Ca/Rt header, a [port] line or a comment)");
        }
        s.remove_prefix(word);
        skipSpace(s);
        if (!readInt(s, n.ports) || n.ports < 1 || n.ports > 255)
            return fail(std::string(type) + " header without a port count in 1..255");
        skipSpace(s);
        if (!readQuoted(s, n.id) || n.id.empty())
            return fail(std::string(type) + " header without a quoted node id");
        if (!m_ids.insert(n.id).second)
            return fail("node \"" + n.id + "\" is described twice");
        n.description = headerDescription(s);
        if (n.description.empty())
            n.description = n.id;
        m_fabric.nodes.push_back(std::move(n));
        m_current = &m_fabric.nodes.back();
        m_ports.clear();
        return true;
    }

    bool parsePort(std::string_view s, int line)
    {
        IbPort p;
        p.line = line;
        if (!readBracketPort(s, p.port)) {
            m_unknownLine = true; // "[root@host ~]# ibnetdiscover" before the output is not one
            return fail("malformed port number (expected \"[N]\")");
        }
        if (!m_current)
            return fail("port line outside a node record (a Switch or Ca header must come first)");
        if (p.port < 0 || p.port > m_current->ports
            || (p.port == 0 && m_current->type != IbNodeType::Switch))
            return fail("port " + std::to_string(p.port) + " outside 1.."
                        + std::to_string(m_current->ports) + " of \"" + m_current->id + "\"");
        if (!m_ports.insert(p.port).second)
            return fail("port " + std::to_string(p.port) + " of \"" + m_current->id
                        + "\" is listed twice");
        skipParenthesis(s);
        skipSpace(s);
        if (!readQuoted(s, p.remoteId) || p.remoteId.empty())
            return fail("port " + std::to_string(p.port) + " without a quoted remote node id");
        p.remotePort = 1; // ibsim's default when the remote port is left out
        if (!s.empty() && s.front() == '[' && !readBracketPort(s, p.remotePort))
            return fail("malformed remote port number after \"" + p.remoteId + "\"");
        if (p.remotePort < 1 || p.remotePort > 255)
            return fail("remote port " + std::to_string(p.remotePort) + " outside 1..255");
        skipParenthesis(s);
        linkWidthSpeed(s, p.width, p.speed);
        m_current->links.push_back(std::move(p));
        return true;
    }

    std::string_view m_text;
    IbFabric m_fabric;
    SkippedLines m_preamble;
    bool m_unknownLine = false; // the failed line is not ibnetdiscover's at all
    IbNode *m_current = nullptr; // stable: nodes are only appended after m_current is replaced
    std::unordered_set<std::string> m_ids;
    std::set<int> m_ports;
    std::string m_error;
};

const char *typeWord(IbNodeType t)
{
    switch (t) {
    case IbNodeType::Switch:
        return "Switch";
    case IbNodeType::Router:
        return "Rt";
    case IbNodeType::Ca:
        break;
    }
    return "Ca";
}

} // namespace

IbParseResult parseIbnetdiscover(std::string_view text)
{
    if (isIbPortsReport(text))
        return parseIbPortsReport(text);
    return Parser(text).run();
}

double ibLaneRate(std::string_view speed)
{
    for (const SpeedRate &s : kSpeeds)
        if (speed == s.name)
            return s.gbps4x / 4 * 1e9 / 8;
    return 0;
}

std::string ibSpeedForRate(double rate4x)
{
    for (const SpeedRate &s : kSpeeds)
        if (std::abs(s.gbps4x * 1e9 / 8 - rate4x) <= 1e-9 * rate4x
            && s.name != std::string("FDR10"))
            return s.name;
    return {};
}

std::string writeIbnetdiscover(const IbFabric &fabric, IbTextStyle style)
{
    const bool ibsim = style == IbTextStyle::IbsimNet;
    std::unordered_map<std::string, const IbNode *> byId;
    std::unordered_map<std::string, int> lid;
    for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
        byId[fabric.nodes[i].id] = &fabric.nodes[i];
        lid[fabric.nodes[i].id] = static_cast<int>(i) + 1;
    }
    const auto name = [&](const std::string &id) {
        const auto it = byId.find(id);
        return ibsim && it != byId.end() ? it->second->description : id;
    };
    const auto desc = [&](const std::string &id) {
        const auto it = byId.find(id);
        return it != byId.end() ? it->second->description : id;
    };
    std::string out = "#\n# Topology file: written by Weft\n#\n";
    for (const IbNode &n : fabric.nodes) {
        const bool sw = n.type == IbNodeType::Switch;
        out += '\n';
        if (!ibsim) {
            out += "vendid=0x2c9\ndevid=0x0\n";
            const std::string g = n.id.size() > 2 ? n.id.substr(2) : n.id;
            out += "sysimgguid=0x" + g + "\n" + (sw ? "switchguid=0x" : "caguid=0x") + g + "\n";
        }
        out += std::string(typeWord(n.type)) + '\t' + std::to_string(n.ports) + " \"" + name(n.id)
            + "\"\t\t# \"" + n.description + '"';
        if (sw)
            out += " base port 0 lid " + std::to_string(lid[n.id]) + " lmc 0";
        out += '\n';
        for (const IbPort &p : n.links) {
            const std::string conn = p.width > 0 && !p.speed.empty()
                ? " " + std::to_string(p.width) + "x" + p.speed
                : std::string();
            const std::string remote
                = '"' + name(p.remoteId) + "\"[" + std::to_string(p.remotePort) + ']';
            const std::string rlid = std::to_string(lid.count(p.remoteId) ? lid[p.remoteId] : 0);
            if (sw)
                out += '[' + std::to_string(p.port) + "]\t" + remote + "\t\t# \"" + desc(p.remoteId)
                    + "\" lid " + rlid + conn + '\n';
            else
                out += '[' + std::to_string(p.port) + "]\t" + remote + "\t\t# lid "
                    + std::to_string(lid[n.id]) + " lmc 0 \"" + desc(p.remoteId) + "\" lid " + rlid
                    + conn + '\n';
        }
    }
    return out;
}

} // namespace weft
