#include "io/hostnames.h"

#include <cctype>

namespace weft {

namespace {

bool digit(char c)
{
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

} // namespace

bool naturalLess(const std::string &a, const std::string &b)
{
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && digit(a[ie]))
                ++ie;
            while (je < b.size() && digit(b[je]))
                ++je;
            std::size_t za = i, zb = j; // skip leading zeros
            while (za + 1 < ie && a[za] == '0')
                ++za;
            while (zb + 1 < je && b[zb] == '0')
                ++zb;
            if (ie - za != je - zb)
                return ie - za < je - zb;
            if (const int c = a.compare(za, ie - za, b, zb, je - zb); c != 0)
                return c < 0;
            if (ie - i != je - j)
                return ie - i < je - j;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

std::string namePrefix(const std::string &host)
{
    std::size_t n = host.size();
    while (n > 0 && digit(host[n - 1]))
        --n;
    return host.substr(0, n);
}

} // namespace weft
