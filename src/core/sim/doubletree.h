#pragma once
// NCCL's double binary tree over the nodes of a collective (simulator.md, Communication: Tree).

namespace weft {

/// Parent of `rank` in tree `tree` (0 or 1) of NCCL's double binary tree over `ranks` nodes, or
/// -1 for that tree's root. Tree 0 is NCCL's in-order binary tree rooted at rank 0 (its
/// interior nodes are the even ranks, its leaves the odd ones); tree 1 is tree 0 mirrored
/// (rank r takes the place of ranks - 1 - r) when `ranks` is even, shifted by one rank when it
/// is odd, so that every node is interior in at most one of the two trees and each tree carries
/// half the data (Sanders, Speck and Traff 2009, "Two-tree algorithms for full bandwidth
/// broadcast, reduction and scan"; NCCL src/graph/trees.cc, ncclGetBtree / ncclGetDtree).
/// Consequence for the scale-out load: beyond two nodes an interior node's NIC carries, per
/// direction, its two children's and its parent's halves of one tree plus its leaf half of the
/// other, twice the two-node load: NCCL's tuning model halves the tree's inter-node bandwidth
/// there (tuning.cc, NVLS_TREE: bwInter / 2 for nNodes > 2).
/// Errors: -1 for a rank outside [0, ranks) or a tree other than 0 and 1.
int doubleTreeParent(int ranks, int rank, int tree);

} // namespace weft
