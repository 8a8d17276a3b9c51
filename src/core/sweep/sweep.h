#pragma once
// Parameter sweeps (`weft-cli sweep`, issue 6): variants of one design that differ in one
// parameter, simulated in parallel on local threads, optionally split into shards for a cluster
// job array (variant i belongs to shard i % N), and merged back into one table.

#include "model/catalog.h"
#include "model/design.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace weft {

/// What a sweep varies.
enum class SweepParam {
    ScaleUpDomain, ///< accelerators per scale-up domain (regenerates the fabric)
    Tp, ///< TP degree (DP adjusts to keep the world size)
    Pp, ///< PP degree (DP adjusts to keep the world size)
    Dp, ///< DP degree (weak scaling: the global batch scales with DP)
    MicroBatch, ///< micro-batch size b, sequences
    GlobalBatch, ///< global batch B, sequences
    Oversubscription, ///< leaf downlink:uplink ratio (regenerates the fabric)
    NicRate ///< NIC line rate per accelerator in Gb/s (regenerates the fabric)
};

/// Command-line name: "scale-up-domain", "tp", "pp", "dp", "micro-batch", "global-batch",
/// "oversubscription", "nic-gbps".
const char *toString(SweepParam p);
bool fromString(const std::string &s, SweepParam &out);
/// Every parameter, in declaration order.
const std::vector<SweepParam> &allSweepParams();
/// Axis title ("scale-up domain size") and unit ("GPUs", "Gb/s", "sequences"; empty for none).
std::string sweepParamTitle(SweepParam p);
std::string sweepParamUnit(SweepParam p);
/// One sentence saying what stays fixed while `p` varies.
std::string sweepHeldFixed(SweepParam p);

/// Parses "8,16,32,72" (positive finite numbers; integers for the integer parameters).
/// Throws std::invalid_argument naming the bad item.
std::vector<double> parseSweepValues(SweepParam p, const std::string &text);

/// One variant's design, or the reason it cannot be built; `note` says what was adjusted
/// (preset used, DP derived, ...).
struct SweepVariant
{
    std::optional<Design> design;
    std::string error;
    std::string note;
};

/// Builds the variant of `base` with `p` = `value`. Fabric parameters regenerate the fabric
/// from `base.generator` with `catalog` (the workload is kept; an explicit rank map is dropped).
/// Scale-up domain size: the design's own preset when its size matches, else a catalog preset
/// of that size with the same accelerator, else a single-level domain of the same accelerator,
/// NVSwitch chip and lanes per accelerator with as few chips as fit the chip radix; the domain
/// count is chosen to keep the accelerator count (rounded up to whole domains). Never throws.
SweepVariant buildSweepVariant(const Design &base, const Catalog &catalog, SweepParam p,
                               double value);

/// One simulated variant. `ok` is false when it could not be built or simulated or does not fit
/// in HBM; `reason` then says why (figures are kept where the simulation ran).
struct SweepRow
{
    int index = 0; ///< position in the value list
    double value = 0;
    bool ok = false;
    std::string reason;
    std::string note;
    long long accelerators = 0; ///< in the variant's design
    int tp = 0, pp = 0, dp = 0, microBatch = 0, globalBatch = 0;
    double stepTime = 0; ///< seconds
    double tokensPerSecond = 0;
    double mfu = 0; ///< fraction
    double peakMemoryPerGpu = 0; ///< bytes
    double memoryCapacityPerGpu = 0; ///< bytes

    bool operator==(const SweepRow &) const = default;
};

/// The rows of a sweep (or of one shard of it), ordered by index.
struct SweepTable
{
    std::string design; ///< design name
    SweepParam param = SweepParam::Tp;
    std::vector<double> values; ///< the whole value list (all shards)
    int shard = 0; ///< this table's shard; shards == 1 for a whole or merged sweep
    int shards = 1;
    std::vector<SweepRow> rows;

    bool operator==(const SweepTable &) const = default;
};

struct SweepRunOptions
{
    int jobs = 1; ///< worker threads (>= 1)
    int shard = 0; ///< run only variants with index % shards == shard
    int shards = 1;
    /// Called (from worker threads, serialised) after each variant with done and total counts.
    std::function<void(int done, int total)> progress;
    /// When set to true (from any thread) the running simulations stop and no further variant
    /// starts; variants that did not finish become rows with ok false and reason "cancelled".
    const std::atomic<bool> *cancel = nullptr;
};

/// Builds and simulates the shard's variants on `options.jobs` threads. Never throws for a
/// failing variant (it becomes a row with the reason); throws std::invalid_argument for a bad
/// shard or job count.
SweepTable runSweep(const Design &base, const Catalog &catalog, SweepParam p,
                    const std::vector<double> &values, const SweepRunOptions &options = {});

/// Combines shard tables of one sweep into one table (shard 0 of 1). Throws
/// std::invalid_argument when they belong to different sweeps (design, parameter, values,
/// shard count), a shard is given twice or a variant is missing (naming the shard/indices).
SweepTable mergeSweepTables(const std::vector<SweepTable> &shards);

} // namespace weft
