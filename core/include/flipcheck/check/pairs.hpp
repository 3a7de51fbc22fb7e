// Every pair of a format's codes through the binary operation built on a mapping: the atomic
// max/min step decode(op(encode(a), encode(b))) that float atomics and reductions run on keys
// (P3008's fetch_max on a total order, a user's combine step). Its answer must be the larger
// (smaller) of a and b in IEEE totalOrder, bit for bit: for binary32 that is 2^64 pairs, the
// space issue 35 cuts into shards. Host only (the GPU twin: gpu/pairs.cuh).
//
// The pair space is cut by its first operand: a "row" is one a with every b, so a range of rows
// is a key_range of the format and shards, checkpoints of progress and manifests all reuse the
// sweep's (a shard of rows is a shard of pairs). Counterexamples are, for each of the first
// `limit` failing rows, its smallest failing b: the same list on every backend and thread count.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "flipcheck/float_environment.hpp"
#include "flipcheck/check/report.hpp"
#include "flipcheck/error.hpp"
#include "flipcheck/mapping.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/policy.hpp"

namespace flipcheck {

struct pair_counterexample {
    std::uint64_t a = 0, b = 0, expected = 0, actual = 0;
    friend constexpr bool operator==(const pair_counterexample&, const pair_counterexample&) = default;
};

struct pairs_progress {
    std::uint64_t rows_done, rows_total;
    double seconds;
};

struct pairs_options {
    reduce_op op = reduce_op::max;
    std::optional<key_range> rows;  // first operands; default: every code of the format
    shard part{};
    std::size_t limit = 16;  // failing rows to keep a counterexample of; stop after the first failing rows...
    bool all = false;        // ...unless all is set: every row, every failure counted
    unsigned threads = 0;    // 0: every hardware thread
    // A timing aid (`flipcheck plan` measures a rate with it): only b < columns in each row, 0 for
    // every b. A report made with it covers part of each row and is never a pass.
    std::uint64_t columns = 0;
    std::function<void(const pairs_progress&)> progress;
    const std::atomic<bool>* stop = nullptr;
};

struct pairs_report {
    std::string format, mapping, op = "max";
    std::string backend = "cpu";
    int key_bits = 0;            // the format's width: 2^key_bits codes, 2^(2 key_bits) pairs
    key_range rows{};            // the first operands this run was asked to cover
    std::uint64_t rows_checked = 0;
    std::uint64_t failing_pairs = 0;
    std::vector<pair_counterexample> counterexamples;  // the first failing rows' smallest b, by a
    bool stopped_early = false, interrupted = false;
    double seconds = 0;

    std::uint64_t columns = 0;   // pairs_options::columns (0: every b)

    bool passed() const noexcept {
        return failing_pairs == 0 && !interrupted && columns == 0 && rows_checked > 0 && rows_checked == rows.size();
    }
    // Pairs checked: rows times 2^key_bits (2^64 for all of binary32's, so a double).
    double pairs_checked() const noexcept { return columns ? double(rows_checked) * double(columns) : std::ldexp(double(rows_checked), key_bits); }
    double pairs_per_second() const noexcept { return seconds > 0 ? pairs_checked() / seconds : 0; }
};

template <format F>
constexpr bool pairable = F::unused_mask == 0 && F::width <= 32;

// The rows a run of o covers (o.rows, or every code, cut by o.part); bad input as keys_to_sweep.
template <format F>
key_range rows_to_check(const pairs_options& o) {
    if (o.part.count == 0 || o.part.index >= o.part.count) throw input_error("bad shard: index must be < count");
    const key_range whole = o.rows.value_or(key_range{0, std::uint64_t(F::value_mask) + 1});
    if (whole.size() == 0 || whole.end < whole.begin || whole.last() > std::uint64_t(F::value_mask))
        throw input_error("first-operand range [" + std::to_string(whole.begin) + ", " + std::to_string(whole.end) +
                          ") is empty or outside the codes of " + std::string(F::name));
    const key_range r = o.part.of(whole);
    if (r.size() == 0)
        throw input_error("shard " + std::to_string(o.part.index) + "/" + std::to_string(o.part.count) + " of " +
                          std::to_string(whole.size()) + " rows holds no row: use fewer shards");
    return r;
}

// A report of M's pairs over the rows of o, nothing checked yet (both backends start from it).
template <mapping M>
pairs_report pairs_report_for(const pairs_options& o, const char* backend) {
    using F = typename M::format;
    pairs_report r;
    r.format = std::string(F::name);
    r.mapping = std::string(M::name);
    r.op = o.op == reduce_op::max ? "max" : "min";
    r.backend = backend;
    r.key_bits = F::width;
    r.rows = rows_to_check<F>(o);
    return r;
}

// The operation's answer and the oracle's on one pair.
template <mapping M>
struct pair_law {
    using F = typename M::format;
    using S = typename F::storage;
    FLIPCHECK_HD static S combine(S a, S b, reduce_op op) noexcept {
        const S ka = M::encode(a), kb = M::encode(b);
        return M::decode(op == reduce_op::max ? (ka > kb ? ka : kb) : (ka < kb ? ka : kb));
    }
    // The larger (max) or smaller (min) in totalOrder; where neither precedes the other (one
    // value with two codes in a format without a total order on codes), either operand is right.
    FLIPCHECK_HD static bool holds(S a, S b, S got, reduce_op op) noexcept {
        const auto va = F::to_value(a), vb = F::to_value(b);
        const bool a_less = oracle::total_less(va, vb), b_less = oracle::total_less(vb, va);
        const S want = op == reduce_op::max ? (a_less ? b : a) : (a_less ? a : b);
        return (got == want) | ((!a_less & !b_less) & ((got == a) | (got == b)));
    }
    FLIPCHECK_HD static S expected(S a, S b, reduce_op op) noexcept {
        const bool a_less = oracle::total_less(F::to_value(a), F::to_value(b));
        return op == reduce_op::max ? (a_less ? b : a) : (a_less ? a : b);
    }
};

// One row's b in [first, first + n): how many fail, and the smallest that does (n if none).
// Kept out of line and branch-free so that the loop over b vectorizes.
template <mapping M>
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
[[gnu::optimize("O3")]]
#endif
[[gnu::noinline]] std::uint64_t count_row(typename M::format::storage a, std::uint64_t first, std::uint32_t n, reduce_op op) noexcept {
    using S = typename M::format::storage;
    std::uint64_t bad = 0;
    if (op == reduce_op::max)
        for (std::uint32_t i = 0; i < n; ++i) {
            const S b = S(first + i);
            bad += !pair_law<M>::holds(a, b, pair_law<M>::combine(a, b, reduce_op::max), reduce_op::max);
        }
    else
        for (std::uint32_t i = 0; i < n; ++i) {
            const S b = S(first + i);
            bad += !pair_law<M>::holds(a, b, pair_law<M>::combine(a, b, reduce_op::min), reduce_op::min);
        }
    return bad;
}

// Every pair of the rows of o, on every thread: rows are claimed in ascending order and every
// claimed row is finished, so stopping after the first failing rows still yields the smallest.
template <mapping M>
pairs_report check_pairs(const pairs_options& o) {
    const ieee_environment ieee;  // the oracle judges in IEEE's default environment (float_environment.hpp)
    using F = typename M::format;
    using S = typename F::storage;
    static_assert(pairable<F>, "pairs are checked on formats of 32 bits or fewer with no unused bits");
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    pairs_report r = pairs_report_for<M>(o, "cpu");
    const key_range rows = r.rows;
    const std::uint64_t row_size = o.columns ? std::min<std::uint64_t>(o.columns, std::uint64_t(F::value_mask) + 1)
                                             : std::uint64_t(F::value_mask) + 1;
    r.columns = o.columns;
    constexpr std::uint32_t block = 1u << 16;  // b's between looks at the stop flag
    struct row_result {
        std::uint64_t a, failing, first_b;
    };
    std::mutex mu;
    std::condition_variable cv;
    std::vector<row_result> failing_rows;
    std::uint64_t next = rows.begin, done = 0, failing = 0;
    std::size_t failing_count = 0;
    bool stop_claiming = false, interrupted = false;
    unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<std::uint64_t>(threads, rows.size()));
    unsigned running = threads;
    const auto stopped = [&] { return o.stop && o.stop->load(std::memory_order_relaxed); };
    const auto worker = [&] {
        for (;;) {
            std::uint64_t a;
            {
                std::lock_guard lock(mu);
                if (stop_claiming || next == rows.end) break;
                a = next++;
            }
            std::uint64_t bad = 0, first_b = row_size;
            bool cut = false;
            for (std::uint64_t b = 0; b < row_size; b += block) {
                if (stopped()) {
                    cut = true;
                    break;
                }
                const std::uint32_t n = std::uint32_t(std::min<std::uint64_t>(block, row_size - b));
                const std::uint64_t k = count_row<M>(S(a), b, n, o.op);
                if (k && first_b == row_size)
                    for (std::uint32_t i = 0; i < n; ++i)
                        if (!pair_law<M>::holds(S(a), S(b + i), pair_law<M>::combine(S(a), S(b + i), o.op), o.op)) {
                            first_b = b + i;
                            break;
                        }
                bad += k;
            }
            std::lock_guard lock(mu);
            if (cut) {
                interrupted = stop_claiming = true;
                break;
            }
            ++done;
            if (bad) {
                failing += bad;
                failing_rows.push_back({a, bad, first_b});
                if (++failing_count >= o.limit && !o.all) stop_claiming = true;
            }
        }
        std::lock_guard lock(mu);
        --running;
        cv.notify_all();
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
        std::unique_lock lock(mu);
        while (running) {
            cv.wait_for(lock, std::chrono::milliseconds(500));
            if (o.progress) {
                const pairs_progress p{done, rows.size(), std::chrono::duration<double>(clock::now() - t0).count()};
                lock.unlock();
                o.progress(p);
                lock.lock();
            }
        }
    }
    std::sort(failing_rows.begin(), failing_rows.end(), [](const row_result& x, const row_result& y) { return x.a < y.a; });
    // Every claimed row is finished, so the rows done are [rows.begin, next). Stopped early, the
    // report ends at the limit-th failing row: how many rows the threads had claimed past it
    // varies from run to run, and a retried shard must report the same.
    std::uint64_t kept_failing = 0;
    for (const auto& f : failing_rows) {
        if (!o.all && r.counterexamples.size() == o.limit) break;
        kept_failing += f.failing;
        if (r.counterexamples.size() < o.limit)
            r.counterexamples.push_back({f.a, f.first_b, pair_law<M>::expected(S(f.a), S(f.first_b), o.op),
                                         pair_law<M>::combine(S(f.a), S(f.first_b), o.op)});
    }
    const bool cut_short = !interrupted && !o.all && failing_rows.size() >= o.limit;
    r.rows_checked = cut_short ? r.counterexamples.back().a - rows.begin + 1 : done;
    r.failing_pairs = cut_short ? kept_failing : failing;
    r.interrupted = interrupted;
    r.stopped_early = !interrupted && r.rows_checked < rows.size();
    r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return r;
}

}  // namespace flipcheck
