#include "sim/doubletree.h"

namespace weft {

namespace {

// In-order binary tree over 0..ranks-1 rooted at 0: a rank's lowest set bit b gives its level;
// its parent is the rank with b cleared and the next bit set, or with b only cleared when that
// rank is out of range.
int binaryTreeParent(int ranks, int rank)
{
    if (rank <= 0 || rank >= ranks)
        return -1;
    const int low = rank & -rank;
    const int up = (rank ^ low) | (low << 1);
    return up < ranks ? up : rank ^ low;
}

} // namespace

int doubleTreeParent(int ranks, int rank, int tree)
{
    if (rank < 0 || rank >= ranks)
        return -1;
    if (tree == 0)
        return binaryTreeParent(ranks, rank);
    if (tree != 1)
        return -1;
    if (ranks % 2 == 0) {
        const int p = binaryTreeParent(ranks, ranks - 1 - rank);
        return p < 0 ? -1 : ranks - 1 - p;
    }
    const int p = binaryTreeParent(ranks, (rank - 1 + ranks) % ranks);
    return p < 0 ? -1 : (p + 1) % ranks;
}

} // namespace weft
