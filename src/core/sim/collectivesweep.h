#pragma once
// nccl-tests for a design that does not exist yet (`weft-cli collective`): one collective over
// a set of accelerators, simulated alone on the fabric for each message size, reported with the
// nccl-tests definitions (algbw = S / t; busbw = algbw x busBandwidthFactor, see collectives.h).

#include "sim/collectives.h"

#include <string>
#include <vector>

namespace weft {

/// One size of a sweep.
struct CollectiveSweepRow
{
    double bytes = 0; ///< message size (nccl-tests convention), bytes
    double seconds = 0; ///< simulated time
    double algbw = 0; ///< bytes / seconds, bytes/s
    double busbw = 0; ///< algbw x bus factor, bytes/s
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring; ///< algorithm used (Auto resolved)
    int channels = 1;
    Protocol protocol = Protocol::Simple; ///< NCCL protocol used (protocol.h)
};

/// Simulates `kind` over `members` for every size in `sizes`. Throws std::invalid_argument
/// (bad members, sizes, algorithm) or UnroutableError.
std::vector<CollectiveSweepRow> sweepCollective(const Design &design, CollectiveKind kind,
                                                const std::vector<NodeId> &members,
                                                const std::vector<double> &sizes,
                                                CollectiveAlgorithm algorithm);

/// The same for `base` (kind, members, algorithm and how auto decides: ncclTuner, collNet; its
/// size is ignored) at every size in `sizes`.
std::vector<CollectiveSweepRow> sweepCollective(const Design &design, const CollectiveSpec &base,
                                                const std::vector<double> &sizes);

/// Parses a size list "8,1K,16M,8G" (suffixes K, M, G, T are powers of 1024 as in nccl-tests;
/// an optional trailing B). Throws std::invalid_argument naming the bad item.
std::vector<double> parseSizeList(const std::string &text);

/// Resolves "all" (every accelerator, design order) or a comma list of accelerator indices
/// (0-based in design order), ranges "a-b", or accelerator names. Throws std::invalid_argument
/// naming the bad item; duplicates are refused.
std::vector<NodeId> parseRankList(const Design &design, const std::string &text);

} // namespace weft
