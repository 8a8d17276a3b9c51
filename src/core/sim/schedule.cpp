#include "sim/schedule.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <unordered_map>

namespace weft {

double EpSlots::exposure(double exchange) const
{
    const double f = std::clamp(firstShare, 0.0, 1.0), x = std::max(0.0, exchange);
    return std::max(0.0, f * x - hideFirst) + std::max(0.0, (1 - f) * x - hideSecond);
}

namespace {

enum class Cat { Tp, Cp, Ep, P2p, Dp, Ag, Gather };

struct Pending
{
    Cat cat;
    int pl = 0, st = 0; // pipeline and stage that waits (op comm) or receives (p2p)
    int vs = 0, mb = 0; // p2p: receiving virtual stage and micro-batch; gather: order index
    bool forward = true; // p2p: direction of the data
    int sender = -1; // p2p: sending stage when the sender blocks (no PP overlap)
};

struct Timer
{
    double t;
    std::uint64_t seq;
    int kind; // 0: compute done (pl, st); 1: DP bucket ready (st, chunk, bucket);
              // 2: parameters gathered without communication (st); 3: side compute done (pl, st);
              // 4: an overlapped exchange's slots done (pl, st)
    int a, b, c;
    bool operator>(const Timer &o) const { return t != o.t ? t > o.t : seq > o.seq; }
};

struct StageState
{
    std::size_t next = 0; // index of the next op in order
    bool busy = false;
    int pending = 0; // outstanding comm of the current op
    bool computing = false;
    double waitSince = -1; // ZeRO-3: free with input ready since, waiting for the gather
    double computeDue = 0; // when the current op's compute ends (a timer before it is stale)
    double computeDur = 0;
    int epPending = 0; // EP requests of the current op in flight, when overlapped
    bool epOverlapped = false, slowed = false;
    // The current operation covers `ops` entries of the order: 2 for a steady pair of the
    // combined 1F1B EP overlap (F then B, one operation), else 1.
    int ops = 1;
    double opStart = 0; // when the current operation started
    // EP overlap of a pair: 1 while the backward's exchange is in flight, 2 the forward's, 3
    // none left; the backward's took epFirst seconds, the forward's epSecond.
    int epPhase = 0;
    double epFirst = 0, epSecond = 0, epPhaseStart = 0;
    int blockedSends = 0; // without PP overlap: the operation's sends still in flight
    int cpPending = 0; // CP requests of the current op in flight
    double cpWindow = 0; // seconds of its compute the CP exchange hides behind
    bool cpDeferred = false; // the compute's end waits for the CP exchange
};

double at(const std::vector<double> &v, int i)
{
    return i >= 0 && i < static_cast<int>(v.size()) ? v[static_cast<std::size_t>(i)] : 0;
}

class Engine
{
public:
    Engine(const ScheduleSpec &s, CommBackend &c, const ProgressFn &pr)
        : m_s(s)
        , m_comm(c)
        , m_progress(pr)
    {
    }
    ScheduleOutcome run();

private:
    const ScheduleSpec &m_s;
    CommBackend &m_comm;
    const ProgressFn &m_progress;
    ScheduleOutcome m_out;
    int m_n = 1; // virtual stages
    std::vector<std::vector<StageOp>> m_order; // [stage]
    std::vector<std::vector<int>> m_lastBwdIndex; // [stage][chunk] index in order
    // [stage][order index]: a steady forward run with the next entry (its backward partner)
    // as one operation under the combined 1F1B EP overlap.
    std::vector<std::vector<char>> m_pairStart;
    std::vector<std::vector<StageState>> m_state; // [pl][stage]
    std::vector<std::vector<double>> m_arrF, m_arrB, m_prodF, m_prodB; // [pl][vs*m + mb]
    std::priority_queue<Timer, std::vector<Timer>, std::greater<>> m_timers;
    std::uint64_t m_seq = 0;
    std::unordered_map<CommId, Pending> m_pending;
    std::vector<int> m_bucketCount; // [(stage * v + chunk) * maxBuckets + bucket]
    int m_maxBuckets = 1;
    std::size_t m_opsDone = 0, m_opsTotal = 0;
    // [stage][order index]: least seconds from that operation's start to the end of the last
    // operation (tailLengths()), and the least the step can last as known when the latest
    // operation started (stopAfter).
    std::vector<std::vector<double>> m_tail;
    double m_stepFloor = 0;
    double m_optimizerMax = 0; // the slowest stage's optimizer step
    int m_dpOutstanding = 0;
    std::size_t m_dpSubmitted = 0; // DP/ZeRO requests so far, for the progress fraction
    double m_now = 0;
    // ZeRO-3 parameter all-gathers, one per stage operation [stage][order index].
    std::vector<std::vector<int>> m_gatherAsks; // simulated pipelines that asked
    std::vector<std::vector<int>> m_gatherLeft; // requests in flight
    std::vector<std::vector<char>> m_gathered; // parameters in place
    std::vector<std::vector<std::size_t>> m_gatherNext; // [pl][stage] next index to ask for

    int buckets(int vs) const
    {
        const ChunkWork &w = m_s.chunks[static_cast<std::size_t>(vs)];
        const double nb = std::ceil(w.gradBytes / std::max(1.0, m_s.dpBucketBytes));
        return static_cast<int>(std::clamp(nb, 1.0, double(std::max(1, w.layers))));
    }
    const ChunkWork &work(int st, const StageOp &op) const
    {
        return m_s.chunks[static_cast<std::size_t>(op.chunk * m_s.p + st)];
    }
    OpRecord &current(int pl, int st)
    {
        return m_out.ops[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)].back();
    }
    void submit(const CommRequest &r, const Pending &p, double t)
    {
        m_pending.emplace(m_comm.submit(r, t), p);
    }
    void submitGroups(const std::vector<CommGroup> &groups,
                      const std::vector<CollectiveCall> &calls, Pending p, int &counter)
    {
        if (calls.empty())
            return;
        for (const CommGroup &g : groups) {
            if (g.members.size() < 2)
                continue;
            submit(CommRequest {g.members, calls, g.tag, {}}, p, m_now);
            ++counter;
        }
    }
    bool inputReady(int pl, int st, const StageOp &op, double &ready, double &prod) const;
    // Compute beside the dispatcher's kernels for `overlapped` seconds ran on 1 - f of the SMs:
    // it ends overlapped * f / (1 - f) later.
    void slowCompute(StageState &ss, double overlapped) const
    {
        const double f = std::clamp(m_s.epSmFraction, 0.0, 0.9);
        ss.computeDue += std::max(0.0, overlapped) * f / (1 - f);
        ss.slowed = true;
    }
    void tryStart(int pl, int st);
    void computeDone(int pl, int st);
    void sideComputeDone(int pl, int st);
    // Combined 1F1B EP overlap of a steady pair: submits the exchange of `phase` (1: the
    // backward's, 2: the forward's; one after the other as on the communication stream),
    // skipping a side without one.
    void pairExchange(int pl, int st, int phase);
    // When a pair's exchanges are through, the pair may not end before its compute plus what
    // their slots expose (EpSlots::exposure).
    void holdForEpSlots(int pl, int st);
    void epSlotsDone(int pl, int st);
    void finishOp(int pl, int st);
    // The stage moves past its current operation and starts the next when it can.
    void freeStage(int pl, int st);
    // Hands `op`'s output to its consumer; true when the send blocks the stage (no PP overlap).
    bool handOff(int pl, int st, const StageOp &op);
    void commDone(const Pending &p);
    void bucketReady(int st, int chunk, int bucket);
    int submitDp(int st, CollectiveCall dense, double expertBytes, const Pending &p);
    void askGather(int pl, int st, std::size_t upTo);
    void gathered(int st, std::size_t i);
    // Fraction of the step's work done: pipeline operations and DP/ZeRO requests finished over
    // those known so far (requests are counted as they are submitted, so it may step back a
    // little when a bucket is submitted; callers keep the maximum).
    [[nodiscard]] double progress() const
    {
        const std::size_t dpDone = m_dpSubmitted - static_cast<std::size_t>(m_dpOutstanding);
        const std::size_t total = m_opsTotal + m_dpSubmitted;
        return total ? double(m_opsDone + dpDone) / double(total) : 0;
    }
    bool loop();
    void breakdown();
    void tailLengths();
};

// The longest path from each operation's start to the end of the last one, through the
// schedule's dependencies: the next operation on its stage (stageOrder()) and the one its
// output feeds (the next virtual stage's forward, the previous one's backward, or after the
// last forward its own backward), each at least its compute (or the caller's least time),
// sends at least the caller's least PP send time, and a chunk's last backward at least the
// caller's least time of its gradients' reduction. The simulator runs every operation in that order
// and starts it no sooner than its input has arrived, so from any operation's start the step lasts
// at least its tail.
void Engine::tailLengths()
{
    const std::size_t p = static_cast<std::size_t>(m_s.p);
    const std::size_t m = static_cast<std::size_t>(m_s.m);
    // Stage and order index of each (direction, virtual stage, micro-batch).
    std::vector<std::pair<int, int>> where(2 * static_cast<std::size_t>(m_n) * m, {-1, -1});
    const auto key = [m](bool forward, int vs, int mb) {
        return (static_cast<std::size_t>(vs) * m + static_cast<std::size_t>(mb)) * 2
            + (forward ? 0 : 1);
    };
    for (std::size_t st = 0; st < p; ++st)
        for (std::size_t i = 0; i < m_order[st].size(); ++i) {
            const StageOp &o = m_order[st][i];
            where[key(o.forward, o.chunk * m_s.p + static_cast<int>(st), o.microBatch)]
                = {static_cast<int>(st), static_cast<int>(i)};
        }
    const auto least = [this](const StageOp &o, int st) {
        const int vs = o.chunk * m_s.p + st;
        const ChunkWork &w = m_s.chunks[static_cast<std::size_t>(vs)];
        return std::max(o.forward ? w.forwardTime : w.backwardTime,
                        at(o.forward ? m_s.least.forward : m_s.least.backward, vs));
    };
    // The operation fed by `o` on stage `st`, or {-1, -1}.
    const auto consumer = [&](const StageOp &o, int st) -> std::pair<int, int> {
        const int vs = o.chunk * m_s.p + st;
        if (o.forward) // the last virtual stage's forward feeds its own backward
            return vs == m_n - 1 ? where[key(false, vs, o.microBatch)]
                                 : where[key(true, vs + 1, o.microBatch)];
        return vs > 0 ? where[key(false, vs - 1, o.microBatch)] : std::pair {-1, -1};
    };
    // Reverse topological order: an operation once both its successors are done.
    m_tail.assign(p, {});
    std::vector<std::vector<int>> left(p);
    std::vector<std::vector<std::pair<int, int>>> producer(p);
    for (std::size_t st = 0; st < p; ++st) {
        m_tail[st].assign(m_order[st].size(), 0.0);
        left[st].assign(m_order[st].size(), 0);
        producer[st].assign(m_order[st].size(), {-1, -1});
    }
    for (std::size_t st = 0; st < p; ++st)
        for (std::size_t i = 0; i < m_order[st].size(); ++i) {
            left[st][i] += i + 1 < m_order[st].size() ? 1 : 0;
            const auto [cs, ci] = consumer(m_order[st][i], static_cast<int>(st));
            if (cs >= 0) {
                ++left[st][i];
                producer[static_cast<std::size_t>(cs)][static_cast<std::size_t>(ci)]
                    = {static_cast<int>(st), static_cast<int>(i)};
            }
        }
    std::vector<std::pair<int, int>> ready;
    for (std::size_t st = 0; st < p; ++st)
        for (std::size_t i = 0; i < m_order[st].size(); ++i)
            if (left[st][i] == 0)
                ready.emplace_back(static_cast<int>(st), static_cast<int>(i));
    while (!ready.empty()) {
        const auto [st, i] = ready.back();
        ready.pop_back();
        const std::size_t si = static_cast<std::size_t>(st), ii = static_cast<std::size_t>(i);
        const StageOp &op = m_order[si][ii];
        double after = ii + 1 < m_order[si].size() ? m_tail[si][ii + 1] : 0.0;
        if (const auto [cs, ci] = consumer(op, st); cs >= 0) {
            // A send to another stage crosses boundary st (forward) or cs (backward).
            const double hop = cs == st ? 0.0 : at(m_s.least.hops, op.forward ? st : cs);
            after = std::max(
                after, hop + m_tail[static_cast<std::size_t>(cs)][static_cast<std::size_t>(ci)]);
        }
        m_tail[si][ii] = least(op, st) + after;
        // The chunk's gradients reduce from the start of its last backward on.
        if (!op.forward
            && static_cast<int>(ii) == m_lastBwdIndex[si][static_cast<std::size_t>(op.chunk)])
            m_tail[si][ii]
                = std::max(m_tail[si][ii], at(m_s.least.gradient, op.chunk * m_s.p + st));
        const auto release = [&](int s, int k) {
            if (s >= 0 && --left[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)] == 0)
                ready.emplace_back(s, k);
        };
        if (ii > 0)
            release(st, i - 1);
        release(producer[si][ii].first, producer[si][ii].second);
    }
}

bool Engine::inputReady(int pl, int st, const StageOp &op, double &ready, double &prod) const
{
    const int vs = op.chunk * m_s.p + st;
    const std::size_t idx = static_cast<std::size_t>(vs * m_s.m + op.microBatch);
    const auto &arr
        = op.forward ? m_arrF[static_cast<std::size_t>(pl)] : m_arrB[static_cast<std::size_t>(pl)];
    const auto &pr = op.forward ? m_prodF[static_cast<std::size_t>(pl)]
                                : m_prodB[static_cast<std::size_t>(pl)];
    if (op.forward && vs == 0) {
        ready = prod = 0;
        return true;
    }
    if (arr[idx] < 0)
        return false;
    ready = arr[idx];
    prod = pr[idx];
    return true;
}

void Engine::tryStart(int pl, int st)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    const std::size_t si = static_cast<std::size_t>(st);
    const auto &order = m_order[si];
    if (ss.busy || ss.next >= order.size())
        return;
    // A steady pair of the combined 1F1B EP overlap starts once both inputs are there.
    const int n = m_pairStart[si][ss.next] ? 2 : 1;
    double ready[2] = {0, 0}, prod[2] = {0, 0};
    for (int k = 0; k < n; ++k)
        if (!inputReady(pl, st, order[ss.next + static_cast<std::size_t>(k)], ready[k], prod[k]))
            return;
    const std::size_t lastIdx = ss.next + static_cast<std::size_t>(n - 1);
    if (m_s.gatherParams) {
        askGather(pl, st, lastIdx);
        if (!m_gathered[si][ss.next] || !m_gathered[si][lastIdx]) {
            if (ss.waitSince < 0)
                ss.waitSince = m_now;
            return;
        }
    }
    ss.busy = true;
    // The operations this one leads to run at least their tail (tailLengths()), and the
    // optimizer (and the least the caller knows of what follows it) follows the last: the
    // step lasts at least that.
    if (!m_tail.empty())
        m_stepFloor
            = std::max(m_stepFloor, m_now + m_tail[si][ss.next] + m_optimizerMax + m_s.least.tail);
    ss.computing = true;
    ss.pending = 0;
    ss.ops = n;
    ss.opStart = m_now;
    auto &records = m_out.ops[static_cast<std::size_t>(pl)][si];
    for (int k = 0; k < n; ++k) {
        OpRecord rec;
        rec.op = order[ss.next + static_cast<std::size_t>(k)];
        rec.start = m_now;
        rec.ready = ready[k];
        rec.producerEnd = prod[k];
        rec.gatherWait = k == 0 && ss.waitSince >= 0 ? m_now - ss.waitSince : 0;
        records.push_back(rec);
    }
    ss.waitSince = -1;
    const PipelineGroups &g = m_s.pipelines[static_cast<std::size_t>(pl)];
    // Overlapped collectives start with the compute.
    ss.cpPending = 0;
    ss.cpDeferred = false;
    ss.cpWindow = 0;
    double dur = 0;
    for (int k = 0; k < n; ++k) {
        const StageOp &op = order[ss.next + static_cast<std::size_t>(k)];
        const ChunkWork &w = work(st, op);
        ss.cpWindow += op.forward ? w.cpWindowForward : w.cpWindowBackward;
        dur += op.forward ? w.forwardTime : w.backwardTime;
        submitGroups(g.cp[si], op.forward ? w.cpForward : w.cpBackward,
                     Pending {Cat::Cp, pl, st, 0, 0, true, -1}, ss.cpPending);
        if (m_s.overlapTp)
            submitGroups(g.tp[si], op.forward ? w.tpForward : w.tpBackward,
                         Pending {Cat::Tp, pl, st, 0, 0, true, -1}, ss.pending);
    }
    ss.pending += ss.cpPending;
    ss.computeDue = m_now + dur;
    ss.computeDur = dur;
    ss.slowed = false;
    ss.epPending = 0;
    ss.epOverlapped = n == 2;
    if (ss.epOverlapped) // the token exchanges run beside the pair's compute
        pairExchange(pl, st, 1);
    m_timers.push(Timer {ss.computeDue, m_seq++, 0, pl, st, 0});
    if (m_s.gatherParams && m_s.overlapDp) // prefetch the next operation's parameters
        askGather(pl, st, lastIdx + 1);
    // DP buckets of a chunk become ready as its last backward walks through its layers (in a
    // pair, through the pair's layers).
    for (int k = 0; k < n; ++k) {
        const std::size_t i = ss.next + static_cast<std::size_t>(k);
        const StageOp &op = order[i];
        if (op.forward || !m_s.overlapDp
            || static_cast<int>(i) != m_lastBwdIndex[si][static_cast<std::size_t>(op.chunk)])
            continue;
        const int nb = buckets(op.chunk * m_s.p + st);
        for (int b = 0; b < nb; ++b)
            m_timers.push(Timer {m_now + dur * (b + 1) / nb, m_seq++, 1, st, op.chunk, b});
    }
}

void Engine::pairExchange(int pl, int st, int phase)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    const auto &records = m_out.ops[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    const auto &groups
        = m_s.pipelines[static_cast<std::size_t>(pl)].ep[static_cast<std::size_t>(st)];
    for (; phase <= 2; ++phase) {
        const StageOp &op = records[records.size() - (phase == 1 ? 1 : 2)].op;
        const ChunkWork &w = work(st, op);
        ss.epPhase = phase;
        ss.epPhaseStart = m_now;
        if (phase == 1)
            ss.epFirst = ss.epSecond = 0;
        submitGroups(groups, op.forward ? w.epForward : w.epBackward,
                     Pending {Cat::Ep, pl, st, 0, 0, true, -1}, ss.epPending);
        if (ss.epPending > 0) {
            ss.pending += ss.epPending;
            return;
        }
    }
    ss.epPhase = 3; // nothing (left) to exchange
}

void Engine::computeDone(int pl, int st)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    if (!ss.computing || m_now < ss.computeDue)
        return; // a timer the dispatcher's SM share postponed
    if (ss.epOverlapped && ss.epPending > 0 && !ss.slowed && m_s.epSmFraction > 0) {
        slowCompute(ss, ss.computeDur); // the dispatcher held its SMs the whole compute
        m_timers.push(Timer {ss.computeDue, m_seq++, 0, pl, st, 0});
        return;
    }
    if (ss.cpPending > 0 && ss.computeDur > ss.cpWindow) {
        ss.cpDeferred = true; // the layers after the attention wait for the K/V (commDone)
        return;
    }
    ss.computing = false;
    auto &records = m_out.ops[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    OpRecord &rec = records.back();
    rec.computeEnd = m_now;
    if (ss.ops == 2) { // the pair's forward: its share of the compute, first
        OpRecord &f = records[records.size() - 2];
        const double fw = work(st, f.op).forwardTime, bw = work(st, rec.op).backwardTime;
        const double share = fw + bw > 0 ? fw / (fw + bw) : 0.5;
        f.computeEnd = f.commEnd = f.end = ss.opStart + (m_now - ss.opStart - rec.cpStall) * share;
        rec.start = f.end;
    }
    const PipelineGroups &g = m_s.pipelines[static_cast<std::size_t>(pl)];
    const std::size_t si = static_cast<std::size_t>(st);
    double side = 0;
    for (int k = ss.ops; k >= 1; --k) {
        const StageOp &op = records[records.size() - static_cast<std::size_t>(k)].op;
        const ChunkWork &w = work(st, op);
        if (!m_s.overlapTp)
            submitGroups(g.tp[si], op.forward ? w.tpForward : w.tpBackward,
                         Pending {Cat::Tp, pl, st, 0, 0, true, -1}, ss.pending);
        if (si < g.etp.size())
            submitGroups(g.etp[si], op.forward ? w.etpForward : w.etpBackward,
                         Pending {Cat::Tp, pl, st, 0, 0, true, -1}, ss.pending);
        if (!ss.epOverlapped)
            submitGroups(g.ep[si], op.forward ? w.epForward : w.epBackward,
                         Pending {Cat::Ep, pl, st, 0, 0, true, -1}, ss.pending);
        side += op.forward ? w.sideForward : w.sideBackward;
    }
    // Compute beside the exchange (the shared experts on their side stream): the operation
    // ends when both are done. With the exchange already hidden (1F1B A2A overlap) it follows
    // the compute.
    if (side > 0) {
        ++ss.pending;
        m_timers.push(Timer {m_now + side, m_seq++, 3, pl, st, 0});
    }
    if (ss.pending == 0)
        finishOp(pl, st);
}

void Engine::sideComputeDone(int pl, int st)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    current(pl, st).sideDone = m_now;
    if (--ss.pending == 0 && !ss.computing)
        finishOp(pl, st);
}

void Engine::holdForEpSlots(int pl, int st)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    const auto &records = m_out.ops[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    // Each exchange beside the partner's compute of its slots (EpSlots): the forward's beside
    // the backward chunk's halves, the backward's beside the forward chunk's.
    const ChunkWork &f = work(st, records[records.size() - 2].op);
    const ChunkWork &b = work(st, records.back().op);
    const EpSlots forward {f.epSlotsForward.firstShare, b.epSlotsForward.hideFirst,
                           b.epSlotsForward.hideSecond};
    const EpSlots backward {b.epSlotsBackward.firstShare, f.epSlotsBackward.hideFirst,
                            f.epSlotsBackward.hideSecond};
    const double due
        = ss.computeDue + backward.exposure(ss.epFirst) + forward.exposure(ss.epSecond);
    if (due <= m_now)
        return;
    ++ss.pending;
    m_timers.push(Timer {due, m_seq++, 4, pl, st, 0});
}

void Engine::epSlotsDone(int pl, int st)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    current(pl, st).epDone = m_now; // the exchange's exposed part ends with its slots
    if (--ss.pending == 0 && !ss.computing)
        finishOp(pl, st);
}

void Engine::finishOp(int pl, int st)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    const auto &records = m_out.ops[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    OpRecord &rec = current(pl, st);
    rec.commEnd = m_now;
    rec.end = m_now;
    // Both outputs of a pair leave when the pair ends.
    ss.blockedSends = 0;
    for (int k = ss.ops; k >= 1; --k) {
        ++m_opsDone;
        if (handOff(pl, st, records[records.size() - static_cast<std::size_t>(k)].op))
            ++ss.blockedSends;
    }
    if (ss.blockedSends == 0)
        freeStage(pl, st); // else the stage frees when the sends complete
}

void Engine::freeStage(int pl, int st)
{
    StageState &ss = m_state[static_cast<std::size_t>(pl)][static_cast<std::size_t>(st)];
    ss.next += static_cast<std::size_t>(ss.ops);
    ss.busy = false;
    tryStart(pl, st);
}

bool Engine::handOff(int pl, int st, const StageOp &op)
{
    const int vs = op.chunk * m_s.p + st;
    // Hand the output to the consumer: the next virtual stage (forward), the previous one
    // (backward), or this stage's own backward after the last forward.
    int target = -1;
    bool fwdData = op.forward;
    if (op.forward)
        target = (vs == m_n - 1) ? vs : vs + 1;
    else
        target = vs - 1;
    if (op.forward && vs == m_n - 1)
        fwdData = false; // the loss turns the last forward into the first backward's input
    if (target < 0)
        return false;
    bool blocked = false;
    const std::size_t idx = static_cast<std::size_t>(target * m_s.m + op.microBatch);
    auto &arr
        = fwdData ? m_arrF[static_cast<std::size_t>(pl)] : m_arrB[static_cast<std::size_t>(pl)];
    auto &prod
        = fwdData ? m_prodF[static_cast<std::size_t>(pl)] : m_prodB[static_cast<std::size_t>(pl)];
    prod[idx] = m_now;
    const int targetStage = target % m_s.p;
    if (targetStage == st) {
        arr[idx] = m_now;
        return false;
    }
    const auto &pairs = m_s.pipelines[static_cast<std::size_t>(pl)].ppPairs;
    const int boundary = fwdData ? st : targetStage; // pairs are listed s -> s+1
    const CommGroup &pg = pairs[static_cast<std::size_t>(boundary % m_s.p)];
    std::vector<NodeId> members = pg.members;
    if (!fwdData)
        for (std::size_t i = 0; i + 1 < members.size(); i += 2)
            std::swap(members[i], members[i + 1]);
    if (members.empty() || m_s.ppBytes <= 0) {
        arr[idx] = m_now;
    } else {
        blocked = !m_s.overlapPp;
        const PipelineGroups &groups = m_s.pipelines[static_cast<std::size_t>(pl)];
        const auto &caps = fwdData ? groups.ppForwardCap : groups.ppBackwardCap;
        const std::size_t at = static_cast<std::size_t>(boundary % m_s.p);
        submit(
            CommRequest {std::move(members),
                         {{CollectiveOp::SendRecv, m_s.ppBytes, 1}},
                         pg.tag,
                         at < caps.size() ? caps[at] : std::vector<double> {}},
            Pending {Cat::P2p, pl, targetStage, target, op.microBatch, fwdData, blocked ? st : -1},
            m_now);
    }
    if (arr[idx] >= 0)
        tryStart(pl, targetStage);
    return blocked;
}

void Engine::commDone(const Pending &p)
{
    switch (p.cat) {
    case Cat::Tp:
    case Cat::Cp:
    case Cat::Ep: {
        StageState &ss = m_state[static_cast<std::size_t>(p.pl)][static_cast<std::size_t>(p.st)];
        OpRecord &rec = current(p.pl, p.st);
        (p.cat == Cat::Tp ? rec.tpDone : p.cat == Cat::Cp ? rec.cpDone : rec.epDone) = m_now;
        if (p.cat == Cat::Cp && --ss.cpPending == 0 && ss.computing) {
            // The compute beyond the window (ChunkWork::cpWindowForward) follows the exchange.
            const double due = m_now + std::max(0.0, ss.computeDur - ss.cpWindow);
            if (due > ss.computeDue || ss.cpDeferred) {
                rec.cpStall += std::max(0.0, due - ss.computeDue);
                ss.computeDue = std::max(due, ss.computeDue);
                ss.cpDeferred = false;
                m_timers.push(Timer {ss.computeDue, m_seq++, 0, p.pl, p.st, 0});
            }
        }
        if (p.cat == Cat::Ep && ss.epOverlapped && --ss.epPending == 0) {
            (ss.epPhase == 1 ? ss.epFirst : ss.epSecond) = m_now - ss.epPhaseStart;
            if (ss.epPhase == 1) // the backward's exchange is through: the forward's next
                pairExchange(p.pl, p.st, 2);
            if (ss.epPending == 0) { // both exchanges are through
                if (ss.computing && !ss.slowed && m_s.epSmFraction > 0) {
                    // the dispatcher's SMs were taken until now
                    slowCompute(ss, m_now - ss.opStart);
                    m_timers.push(Timer {ss.computeDue, m_seq++, 0, p.pl, p.st, 0});
                }
                holdForEpSlots(p.pl, p.st);
            }
        }
        if (--ss.pending == 0 && !ss.computing)
            finishOp(p.pl, p.st);
        break;
    }
    case Cat::P2p: {
        const std::size_t idx = static_cast<std::size_t>(p.vs * m_s.m + p.mb);
        (p.forward ? m_arrF : m_arrB)[static_cast<std::size_t>(p.pl)][idx] = m_now;
        if (p.sender >= 0) {
            StageState &ss
                = m_state[static_cast<std::size_t>(p.pl)][static_cast<std::size_t>(p.sender)];
            OpRecord &rec = current(p.pl, p.sender);
            rec.end = std::max(rec.end, m_now);
            if (--ss.blockedSends == 0)
                freeStage(p.pl, p.sender);
        }
        tryStart(p.pl, p.st);
        break;
    }
    case Cat::Dp:
    case Cat::Ag:
        --m_dpOutstanding;
        break;
    case Cat::Gather:
        --m_dpOutstanding;
        if (--m_gatherLeft[static_cast<std::size_t>(p.st)][static_cast<std::size_t>(p.vs)] == 0)
            gathered(p.st, static_cast<std::size_t>(p.vs));
        break;
    }
}

void Engine::askGather(int pl, int st, std::size_t upTo)
{
    const std::size_t si = static_cast<std::size_t>(st);
    const auto &order = m_order[si];
    std::size_t &next = m_gatherNext[static_cast<std::size_t>(pl)][si];
    for (; next <= upTo && next < order.size(); ++next) {
        if (++m_gatherAsks[si][next] < static_cast<int>(m_s.pipelines.size()))
            continue; // the group's all-gather starts when every replica asks for it
        const ChunkWork &w = m_s.chunks[static_cast<std::size_t>(order[next].chunk * m_s.p + st)];
        const int calls = std::max(1, w.layers); // one all-gather per layer
        const int n = submitDp(st, {CollectiveOp::AllGather, w.gatherBytes / calls, calls},
                               w.expertGatherBytes / calls,
                               Pending {Cat::Gather, -1, st, static_cast<int>(next), 0, true, -1});
        m_gatherLeft[si][next] = n;
        if (n == 0) // no DP peers: the parameters are local; wake waiting stages from the loop
            m_timers.push(Timer {m_now, m_seq++, 2, st, static_cast<int>(next), 0});
    }
}

void Engine::gathered(int st, std::size_t i)
{
    m_gathered[static_cast<std::size_t>(st)][i] = 1;
    for (int pl = 0; pl < static_cast<int>(m_s.pipelines.size()); ++pl)
        tryStart(pl, st);
}

// `dense` over the stage's DP groups and the same call of `expertBytes` over its expert-DP
// groups; returns the number of requests submitted.
int Engine::submitDp(int st, CollectiveCall dense, double expertBytes, const Pending &p)
{
    int counter = 0;
    const std::size_t si = static_cast<std::size_t>(st);
    const CollectiveCall expert {dense.op, expertBytes, dense.repeat};
    submitGroups(m_s.dpGroups[si], {dense}, p, counter);
    if (expertBytes > 0 && si < m_s.expertDpGroups.size())
        submitGroups(m_s.expertDpGroups[si], {expert}, p, counter);
    m_dpOutstanding += counter;
    m_dpSubmitted += static_cast<std::size_t>(counter);
    return counter;
}

void Engine::bucketReady(int st, int chunk, int bucket)
{
    int &count
        = m_bucketCount[static_cast<std::size_t>((st * m_s.v + chunk) * m_maxBuckets + bucket)];
    if (++count < static_cast<int>(m_s.pipelines.size()))
        return; // the ring starts when every replica has produced the bucket
    const int vs = chunk * m_s.p + st;
    const ChunkWork &w = m_s.chunks[static_cast<std::size_t>(vs)];
    const int nb = buckets(vs);
    submitDp(st,
             {m_s.shardedGrads ? CollectiveOp::ReduceScatter : CollectiveOp::AllReduce,
              (w.gradBytes - w.expertGradBytes) / nb, 1},
             w.expertGradBytes / nb, Pending {Cat::Dp, -1, st, chunk, 0, true, -1});
}

// Processes events until nothing is left; false on error, bound or cancel.
bool Engine::loop()
{
    for (;;) {
        const double tNet = m_comm.nextCompletionTime();
        const double tTimer = m_timers.empty() ? CommBackend::kNever : m_timers.top().t;
        const double t = std::min(tNet, tTimer);
        if (t == CommBackend::kNever)
            return true;
        if (++m_out.events > m_s.maxEvents) {
            m_out.errorCode = "event-bound-reached";
            m_out.error
                = "the simulation stopped after " + std::to_string(m_s.maxEvents) + " events";
            return false;
        }
        if (m_progress && !m_progress(progress())) {
            m_out.cancelled = true;
            return false;
        }
        const double limit = m_s.stopShared
            ? std::min(m_s.stopAfter, m_s.stopShared->load(std::memory_order_relaxed))
            : m_s.stopAfter;
        if (std::max(t, m_stepFloor) > limit) { // the step ends later still
            m_out.stopped = true;
            m_out.stopLimit = limit;
            m_out.stepTime = std::max(t, m_stepFloor);
            return false;
        }
        m_now = std::max(m_now, t);
        for (CommId id : m_comm.advanceTo(t)) {
            auto it = m_pending.find(id);
            if (it == m_pending.end())
                continue;
            const Pending p = it->second;
            m_pending.erase(it);
            commDone(p);
        }
        while (!m_timers.empty() && m_timers.top().t <= m_now) {
            const Timer tm = m_timers.top();
            m_timers.pop();
            if (tm.kind == 0)
                computeDone(tm.a, tm.b);
            else if (tm.kind == 1)
                bucketReady(tm.a, tm.b, tm.c);
            else if (tm.kind == 3)
                sideComputeDone(tm.a, tm.b);
            else if (tm.kind == 4)
                epSlotsDone(tm.a, tm.b);
            else
                gathered(tm.a, static_cast<std::size_t>(tm.b));
        }
    }
}

void Engine::breakdown()
{
    // The breakdown follows the bottleneck stage: the one busy longest (computing or waiting for
    // its own TP/CP/EP/PP communication), so a stage that idles because the others are slow - the
    // dense first stage of an MoE model waiting for expert-parallel stages, say - does not turn
    // their exposed communication into "bubble". Its idle time before, between and after its
    // operations up to the last backward is the bubble (or PP transit, or ZeRO-3 gather waits).
    // Ties go to the stage whose last operation ends last, as in a uniform pipeline.
    double last = -1, busiest = -1, busiestEnd = -1;
    for (std::size_t pl = 0; pl < m_out.ops.size(); ++pl)
        for (std::size_t st = 0; st < m_out.ops[pl].size(); ++st) {
            const auto &ops = m_out.ops[pl][st];
            if (ops.empty())
                continue;
            double busy = 0;
            for (const OpRecord &r : ops)
                busy += r.end - r.start;
            const double end = ops.back().end;
            last = std::max(last, end);
            const double tol = 1e-9 * std::max(busy, busiest);
            if (busy > busiest + tol || (busy >= busiest - tol && end > busiestEnd)) {
                busiest = std::max(busy, busiest);
                busiestEnd = end;
                m_out.criticalPipeline = static_cast<int>(pl);
                m_out.criticalStage = static_cast<int>(st);
            }
        }
    m_out.lastBackwardEnd = std::max(0.0, last);
    Breakdown &b = m_out.breakdown;
    double prevEnd = 0;
    for (const OpRecord &r : m_out.ops[static_cast<std::size_t>(m_out.criticalPipeline)]
                                      [static_cast<std::size_t>(m_out.criticalStage)]) {
        // The wait for a ZeRO-3 parameter all-gather ends the gap (the stage was free and its
        // input in place); the rest is transit of the input or bubble.
        const double gap = std::max(0.0, r.start - prevEnd);
        const double gather = std::min(gap, r.gatherWait);
        const double transit
            = std::clamp(r.start - gather - std::max(prevEnd, r.producerEnd), 0.0, gap - gather);
        b.dpExposed += gather;
        b.ppExposed += transit;
        b.bubble += gap - gather - transit;
        // Compute beside the exchange (shared experts) is compute; the exchange is exposed
        // only once it has ended.
        const double side = std::clamp(r.sideDone - r.computeEnd, 0.0, r.commEnd - r.computeEnd);
        b.compute += r.computeEnd - r.start - r.cpStall + side;
        b.cpExposed += r.cpStall; // the compute waited for the K/V exchange
        const ChunkWork &work
            = m_s.chunks[static_cast<std::size_t>(r.op.chunk * m_s.p + m_out.criticalStage)];
        b.hostBound += std::min(r.computeEnd - r.start - r.cpStall,
                                r.op.forward ? work.hostForward : work.hostBackward);
        const double exposed = r.commEnd - r.computeEnd - side;
        const double tp = std::max(0.0, r.tpDone - r.computeEnd);
        const double cp = std::max(0.0, r.cpDone - r.computeEnd);
        const double ep = std::max(0.0, r.epDone - r.computeEnd);
        const double sum = tp + cp + ep;
        if (exposed > 0 && sum > 0) {
            b.tpExposed += exposed * tp / sum;
            b.cpExposed += exposed * cp / sum;
            b.epExposed += exposed * ep / sum;
        }
        b.ppExposed += r.end - r.commEnd; // blocking send
        prevEnd = r.end;
    }
    b.bubble += std::max(0.0, m_out.lastBackwardEnd - prevEnd); // drain of the other stages
}

ScheduleOutcome Engine::run()
{
    const int P = static_cast<int>(m_s.pipelines.size());
    m_n = m_s.p * m_s.v;
    if (P == 0 || static_cast<int>(m_s.chunks.size()) != m_n) {
        m_out.errorCode = "schedule-invalid";
        m_out.error = "no pipeline to simulate or chunk count mismatch";
        return m_out;
    }
    m_order.resize(static_cast<std::size_t>(m_s.p));
    m_lastBwdIndex.assign(static_cast<std::size_t>(m_s.p),
                          std::vector<int>(static_cast<std::size_t>(m_s.v), -1));
    for (int st = 0; st < m_s.p; ++st) {
        m_order[static_cast<std::size_t>(st)]
            = stageOrder(m_s.schedule, m_s.p, m_s.m, m_s.v, st, m_s.overlapEp);
        const auto &o = m_order[static_cast<std::size_t>(st)];
        // Under the combined 1F1B EP overlap each steady forward runs with the backward after
        // it: stageOrder() alternates them after the warm-up forwards.
        auto &pairs = m_pairStart.emplace_back(o.size(), 0);
        if (m_s.overlapEp && m_s.schedule != PipelineSchedule::GPipe) {
            const std::size_t warmup = static_cast<std::size_t>(
                warmupForwards(m_s.schedule, m_s.p, m_s.m, m_s.v, st, true));
            const std::size_t steady = o.size() / 2 - warmup; // pairs
            for (std::size_t k = 0; k < steady; ++k)
                pairs[warmup + 2 * k] = 1;
        }
        for (std::size_t i = 0; i < o.size(); ++i)
            if (!o[i].forward)
                m_lastBwdIndex[static_cast<std::size_t>(st)][static_cast<std::size_t>(o[i].chunk)]
                    = static_cast<int>(i);
        m_opsTotal += o.size() * static_cast<std::size_t>(P);
    }
    if (std::isfinite(m_s.stopAfter) || m_s.stopShared) // only a limit needs them
        tailLengths();
    for (double o : m_s.optimizerTime)
        m_optimizerMax = std::max(m_optimizerMax, o);
    for (int vs = 0; vs < m_n; ++vs)
        m_maxBuckets = std::max(m_maxBuckets, buckets(vs));
    m_bucketCount.assign(static_cast<std::size_t>(m_s.p * m_s.v * m_maxBuckets), 0);
    if (m_s.gatherParams) {
        for (const auto &o : m_order) {
            m_gatherAsks.emplace_back(o.size(), 0);
            m_gatherLeft.emplace_back(o.size(), 0);
            m_gathered.emplace_back(o.size(), 0);
        }
        m_gatherNext.assign(static_cast<std::size_t>(P),
                            std::vector<std::size_t>(static_cast<std::size_t>(m_s.p), 0));
    }
    const std::size_t cells = static_cast<std::size_t>(m_n * m_s.m);
    m_state.assign(static_cast<std::size_t>(P),
                   std::vector<StageState>(static_cast<std::size_t>(m_s.p)));
    for (auto *v : {&m_arrF, &m_arrB, &m_prodF, &m_prodB})
        v->assign(static_cast<std::size_t>(P), std::vector<double>(cells, -1.0));
    m_out.ops.assign(static_cast<std::size_t>(P),
                     std::vector<std::vector<OpRecord>>(static_cast<std::size_t>(m_s.p)));
    try {
        for (int pl = 0; pl < P; ++pl)
            for (int st = 0; st < m_s.p; ++st) {
                if (m_s.gatherParams && m_s.overlapDp) // prefetch while the input is on its way
                    askGather(pl, st, 0);
                tryStart(pl, st);
            }
        if (!loop())
            return m_out;
        if (m_opsDone != m_opsTotal) {
            m_out.errorCode = "schedule-deadlock";
            m_out.error = "the pipeline schedule stalled after " + std::to_string(m_opsDone)
                + " of " + std::to_string(m_opsTotal) + " operations";
            return m_out;
        }
        breakdown();
        const double lastBwd = m_out.lastBackwardEnd;
        m_now = std::max(m_now, lastBwd);
        if (!m_s.overlapDp)
            for (int st = 0; st < m_s.p; ++st)
                for (int c = 0; c < m_s.v; ++c) {
                    const ChunkWork &w = m_s.chunks[static_cast<std::size_t>(c * m_s.p + st)];
                    submitDp(
                        st,
                        {m_s.shardedGrads ? CollectiveOp::ReduceScatter : CollectiveOp::AllReduce,
                         w.gradBytes - w.expertGradBytes, 1},
                        w.expertGradBytes, Pending {Cat::Dp, -1, st, c, 0, true, -1});
                }
        if (!loop())
            return m_out;
        const double gradsDone = std::max(m_now, lastBwd);
        double opt = 0;
        for (double o : m_s.optimizerTime)
            opt = std::max(opt, o);
        double end = gradsDone + opt;
        if (m_s.shardedGrads && !m_s.gatherParams) { // ZeRO-3 gathers in the next step
            m_now = end;
            for (int st = 0; st < m_s.p; ++st)
                submitDp(st, {CollectiveOp::AllGather, at(m_s.paramBytes, st), 1},
                         at(m_s.expertParamBytes, st), Pending {Cat::Ag, -1, st, 0, 0, true, -1});
            if (!loop())
                return m_out;
            end = std::max(end, m_now);
        }
        m_out.breakdown.optimizer = opt;
        // After the in-step gather waits: the gradients' wait and what follows the optimizer,
        // each a difference that cannot be negative (end - lastBwd - opt could: -1.8e-16 on
        // the bundled dgx-h100-server example, which the charts then refused).
        m_out.breakdown.dpExposed += (gradsDone - lastBwd) + (end - (gradsDone + opt));
        m_out.stepTime = end;
        m_out.ok = true;
    } catch (const std::exception &e) {
        m_out.errorCode = "comm-error";
        m_out.error = e.what();
    }
    return m_out;
}

} // namespace

ScheduleOutcome runSchedule(const ScheduleSpec &spec, CommBackend &comm, const ProgressFn &progress)
{
    Engine e(spec, comm, progress);
    return e.run();
}

} // namespace weft
