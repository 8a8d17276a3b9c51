#pragma once
// NCCL's topology XML of one server: what NCCL_TOPO_DUMP_FILE writes and NCCL_TOPO_FILE reads
// (NCCL src/graph/xml.cc, topo.cc). The elements used:
//
//   <system version="1">
//     <cpu numaid="0" ...>                                 a CPU socket (NUMA node)
//       <pci busid="0000:a1:00.0" class="0x060400" ...>    a PCIe switch (bridge class 0x0604)
//         <pci busid="0000:a4:00.0" class="0x030200" device="0x2330">   a GPU slot
//           <gpu dev="0" sm="90" rank="0">
//             <nvlink target="0000:f5:00.0" count="5" tclass="0x068000"/>  5 NVLinks to an
//           </gpu>                                       NVSwitch (0x0680), or to a GPU (0x0302)
//         </pci>
//         <pci busid="0000:a3:00.0" class="0x020000">     a NIC slot (0x0200 Ethernet,
//           <nic><net name="mlx5_7" speed="200000" port="1" gdr="1"/></nic>  0x0207 InfiniBand)
//
// Cloud topology files (Azure's ndv4/ndv5-topo.xml) give only the PCIe slots with their class;
// their GPUs and NICs are the slots of class 0x0302 / 0x0207 (speeds then come from the preset).
// A NIC without GPUDirect RDMA (gdr="0", the host's socket NIC) is left out of the scale-out rails.

#include "io/fabricimport.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// One GPU of the file, in file order.
struct NcclGpu
{
    std::string busId; ///< PCIe address of its slot
    int sm = 0; ///< compute capability x 10 (80 A100, 90 H100/H200, 100 B200); 0 unknown
    std::string device; ///< PCI device id ("0x2330"), empty when absent
    int switchLinks = 0; ///< NVLinks to NVSwitch chips (tclass 0x068000)
    int gpuLinks = 0; ///< NVLinks straight to other GPUs (tclass 0x030200)
    std::vector<std::string> switchTargets; ///< distinct NVSwitch addresses it reaches
    int nearestNic = -1; ///< index in NcclTopology::nics, -1 without one
    std::string distance; ///< NCCL's path type to it: PIX, PXB, PHB or SYS
};

/// One NIC port of the file.
struct NcclNic
{
    std::string name; ///< "mlx5_7", or the slot's address when the file names none
    std::string busId;
    double rate = 0; ///< bytes/s per direction (speed is in Mb/s); 0 unknown
    bool infiniband = false; ///< PCI class 0x0207
    bool gdr = true; ///< GPUDirect RDMA; false: a host socket NIC, not a rail
};

struct NcclTopology
{
    std::vector<NcclGpu> gpus;
    std::vector<NcclNic> nics;
    int sockets = 0; ///< <cpu> elements
};

/// Parses the XML. Throws std::invalid_argument "line L: ..." for malformed XML, a root that is
/// not <system>, or a number that is not one; an element nested deeper than 64 levels is refused.
NcclTopology parseNcclTopology(std::string_view text);

/// The scale-up preset that `topo` describes: the one named in `options.scaleUpPreset` when it
/// is not "auto", else the catalog preset of the GPUs' PCI device id (then of their sm), with the
/// file's GPU count, NVLinks per GPU, NVSwitch chips, GDR NICs per GPU and NIC rate. Throws
/// std::invalid_argument when no preset fits (naming what the file has). `notes` gets what
/// was inferred and what differs from the preset.
ScaleUpPreset ncclServerPreset(const NcclTopology &topo, const Catalog &catalog,
                               const std::string &requested, std::vector<std::string> &notes);

/// HCA device number (mlx5_N -> N) -> rail of the server `topo` describes, rails numbered
/// g * nicsPerAccelerator + j as the importers deal them to GPU g: with one RDMA NIC per GPU,
/// GPU g's nearest NIC (the pairing NCCL uses, nearestNic) is rail g, so a server that pairs
/// gpu0 with mlx5_7 cables mlx5_7 to GPU 0. Empty, with a line in `notes` saying why, when the
/// pairing is not one distinct NIC per GPU or a NIC's name ends in no number (the importers
/// then keep their device order).
std::map<int, int> ncclRailOfHca(const NcclTopology &topo, int nicsPerAccelerator,
                                 std::vector<std::string> &notes);

/// The server of an NCCL topology XML, as the other importers use it.
struct NcclServer
{
    std::string presetKey; ///< "nccl-topology", added to the catalog
    std::map<int, int> railOfHca; ///< ncclRailOfHca of the file
};

/// Adds the server `text` (an NCCL topology XML) describes to `catalog` as the scale-up preset
/// "nccl-topology" (ncclServerPreset with "auto") and returns its key and rail order, for the
/// servers of the other importers (`weft-cli import ibnetdiscover|slurm --scaleup server.xml`,
/// File > Import's "NCCL topology file..."). Throws std::invalid_argument as parseNcclTopology /
/// ncclServerPreset.
NcclServer addNcclServer(Catalog &catalog, std::string_view text, std::vector<std::string> &notes);

/// addNcclServer, then `options` takes its preset and rail order for the GPU servers of an
/// ibnetdiscover or Slurm import. Throws as addNcclServer.
void useNcclServer(Catalog &catalog, std::string_view text, FabricImportOptions &options,
                   std::vector<std::string> &notes);

/// weft-cli import nccl-topo / File > Import: one server (scale-up domain) built from the file,
/// with a summary of GPUs, NVLinks, NICs and each GPU's nearest NIC (its rail). Errors name the
/// line.
FabricImportResult importNcclTopology(std::string_view text, const Catalog &catalog,
                                      const FabricImportOptions &options);

} // namespace weft
