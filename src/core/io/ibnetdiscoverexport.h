#pragma once
// A design's InfiniBand scale-out written as an ibnetdiscover fabric (io/ibnetdiscover.h), so it
// can be loaded into ibsim, discovered with the real ibnetdiscover and imported back
// (io/ibnetdiscoverimport.h): the round trip keeps switches, servers, rails, cables and rates.
//
// - Switches: the leaf, spine and core switches, NodeDescription = node name, port count = the
//   spec's radix (or the ports used when more).
// - HCAs: one HCA per accelerator NIC link, with one port per lane (a 400G NIC on 200G switch
//   ports is a dual-port HCA), described "<server> mlx5_<i>" where the server is the
//   accelerator's scale-up domain name and i numbers the server's NIC links by rail (rail r of a
//   one-NIC-per-GPU server is mlx5_r), as NVIDIA's DGX naming.
// - Cables: each lane of a Link is one cable on the next free port of each switch, in design
//   order; its rate is written as width x speed (4xHDR for 200 Gb/s; 2x or 1x when only that
//   matches). Scale-up (NVLink) links are not InfiniBand and are left out.

#include "io/ibnetdiscover.h"
#include "model/design.h"

#include <string>
#include <vector>

namespace weft {

struct IbExportResult
{
    IbFabric fabric;
    std::vector<std::string> warnings; ///< e.g. a rate no InfiniBand width x speed gives
};

/// The ibnetdiscover fabric of `design`. Never throws; a design without scale-out switches gives
/// an empty fabric and a warning.
IbExportResult exportIbFabric(const Design &design);

} // namespace weft
