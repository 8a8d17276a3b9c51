#include "model/hardware.h"

namespace weft {

bool applyVariants(const AcceleratorSpec &base, const std::string &key, AcceleratorSpec &out,
                   std::string &error)
{
    AcceleratorSpec s = base;
    s.variants.clear();
    const std::size_t at = key.find('@');
    if (at == std::string::npos) {
        out = base;
        return true;
    }
    std::string applied;
    std::size_t pos = at + 1;
    while (pos <= key.size()) {
        const std::size_t end = std::min(key.find(',', pos), key.size());
        const std::string suffix = key.substr(pos, end - pos);
        pos = end + 1;
        if (suffix.empty())
            continue;
        const AcceleratorVariant *v = nullptr;
        for (const AcceleratorVariant &x : base.variants)
            if (x.suffix == suffix)
                v = &x;
        if (!v) {
            std::string known;
            for (const AcceleratorVariant &x : base.variants)
                known += (known.empty() ? "" : ", ") + x.suffix;
            error = "accelerator '" + base.key + "' has no variant '" + suffix
                + "' (known: " + (known.empty() ? std::string("none") : known) + ")";
            return false;
        }
        if (v->clockScale > 0) { // tensor-core peaks scale with the sustained clock
            s.peakFlopsBf16 *= v->clockScale;
            s.peakFlopsFp8 *= v->clockScale;
            s.peakFlopsFp4 *= v->clockScale;
        }
        if (v->powerW > 0)
            s.powerW = v->powerW;
        if (v->hbmBytes > 0)
            s.hbmBytes = v->hbmBytes;
        if (v->hbmBandwidth > 0)
            s.hbmBandwidth = v->hbmBandwidth;
        applied += (applied.empty() ? "" : ", ") + suffix;
        s.source += " | variant " + suffix + ": " + v->source;
    }
    s.key = key;
    s.name = base.name + " (" + applied + ")";
    out = std::move(s);
    return true;
}

} // namespace weft
