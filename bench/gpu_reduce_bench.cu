// The reductions benchmark: flipcheck's GPU kernels (gpu/include/flipcheck/gpu/reduce.cuh, the
// same kernels the property tests verify) against cub::DeviceReduce::Max/ArgMax, with
// thrust::max_element and seed 002's kernels for reference, in one run. 2^28 random floats (and
// 2^27 doubles: the same bytes); the median of --repeats cudaEvent timings per row, taken round
// robin (each repeat times every row once), rotating through three inputs of 1 GiB each so that
// nothing stays in the 50 MiB L2. GB/s counts the bytes read once.
// Every answer is checked against the host's; the exit status is 1 if any differs.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "flipcheck/gpu/reduce.cuh"
#include "flipcheck/gpu/seed002.cuh"
#include "gpu_timing.cuh"

namespace fc = flipcheck;
namespace fg = flipcheck::gpu;
namespace seed002 = flipcheck::gpu::seed002;

float median_ms(int repeats, const std::function<void(int)>& launch) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    launch(0);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int r = 0; r < repeats; ++r) {
        CHECK(cudaEventRecord(a));
        launch(r + 1);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

constexpr int inputs = 3;

// Three device inputs of n random values in [-1000, 1000], their max and first argmax index.
template <class T>
struct inputs_of {
    T* d[inputs];
    T best[inputs];
    std::size_t best_i[inputs];
    std::size_t copies_of_best[inputs];  // how often the maximum occurs (ties decide seed 002's answer)
    std::uint64_t* offsets;  // the batch {0, n}: one array
    explicit inputs_of(std::size_t n, unsigned seed) {
        std::vector<T> host(n);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<T> dist(T(-1000), T(1000));
        for (int k = 0; k < inputs; ++k) {
            for (auto& x : host) x = dist(rng);
            const auto it = std::max_element(host.begin(), host.end());
            best[k] = *it;
            best_i[k] = std::size_t(it - host.begin());
            copies_of_best[k] = std::size_t(std::count(host.begin(), host.end(), *it));
            CHECK(cudaMalloc(&d[k], n * sizeof(T)));
            CHECK(cudaMemcpy(d[k], host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
        }
        const std::uint64_t off[2] = {0, n};
        CHECK(cudaMalloc(&offsets, sizeof off));
        CHECK(cudaMemcpy(offsets, off, sizeof off, cudaMemcpyHostToDevice));
    }
};


int main(int argc, char** argv) {
    int repeats = 30;
    if (argc == 3 && std::string(argv[1]) == "--repeats") repeats = std::atoi(argv[2]);
    if (argc != 1 && argc != 3) repeats = 0;
    if (repeats < 1) return std::fprintf(stderr, "usage: gpu_reduce_bench [--repeats N >= 1]\n"), 2;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return std::printf("SKIPPED: no CUDA device\n"), 0;
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const unsigned blocks = unsigned(prop.multiProcessorCount) * 8, threads = 256;
    const std::size_t n = std::size_t(1) << 28, bytes = n * sizeof(float);
    inputs_of<float> in(n, 3);

    using F = fc::binary32;
    using M = fc::key_mapping<F>;
    using D = fc::binary64;
    using MD = fc::key_mapping<D>;
    unsigned *word, *counters, *partials;
    unsigned long long *word64, *arg_partials;
    int* arg_seen;
    std::uint64_t* index;
    float* cub_max;
    ::cuda::std::int64_t* cub_idx;
    CHECK(cudaMalloc(&word, 4));
    CHECK(cudaMalloc(&counters, 4));
    CHECK(cudaMemset(counters, 0, 4));
    CHECK(cudaMalloc(&partials, 32 * prop.multiProcessorCount * 4));
    CHECK(cudaMalloc(&word64, 8));
    CHECK(cudaMalloc(&arg_partials, blocks * 8));
    CHECK(cudaMalloc(&arg_seen, blocks * 4));
    CHECK(cudaMalloc(&index, 8));
    fg::wide_word* wide;
    fc::detail::key_slot* wide_partials;
    CHECK(cudaMalloc(&wide, sizeof(fg::wide_word)));
    CHECK(cudaMalloc(&wide_partials, blocks * sizeof(fc::detail::key_slot)));
    CHECK(cudaMalloc(&cub_max, 8));
    CHECK(cudaMalloc(&cub_idx, 8));
    std::size_t temp_bytes = 0, t2 = 0;
    CHECK(cub::DeviceReduce::Max(nullptr, temp_bytes, in.d[0], cub_max, ::cuda::std::int64_t(n)));
    CHECK(cub::DeviceReduce::ArgMax(nullptr, t2, in.d[0], cub_max, cub_idx, ::cuda::std::int64_t(n)));
    temp_bytes = std::max(temp_bytes, t2) * 2;  // room for the binary64 runs too
    void* temp;
    CHECK(cudaMalloc(&temp, temp_bytes));
    seed002::ArgMaxResult* seed_blocks;
    CHECK(cudaMalloc(&seed_blocks, sizeof(seed002::ArgMaxResult) * prop.multiProcessorCount));

    auto batch_of = [&](int r) { return fg::batch<std::uint32_t>{reinterpret_cast<const std::uint32_t*>(in.d[r % inputs]), in.offsets}; };
    const fc::policy total{}, propagate{fc::nan_policy::propagate}, ignore{fc::nan_policy::ignore};
    auto value = [&](fg::atomic_form form, fc::policy p) {
        return [&, form, p](int r) {
            // The atomic forms start from the identity key of max; full_grid overwrites the word.
            if (form != fg::atomic_form::grid) cudaMemsetAsync(word, 0, 4);
            fg::launch_reduce<M>(form, p, fc::reduce_op::max, batch_of(r), 1, blocks, threads, word, partials, counters);
        };
    };
    auto value_ok = [&](int r) {
        unsigned k = 0;
        CHECK(cudaMemcpy(&k, word, 4, cudaMemcpyDeviceToHost));
        return M::decode(k) == fc::bit_cast<std::uint32_t>(in.best[r % inputs]);
    };
    auto index_ok = [&](int r, std::uint64_t i) { return i == in.best_i[r % inputs]; };

    std::vector<row> rows;
    auto measure = [&](const std::string& name, const std::function<void(int)>& launch, const std::function<bool(int)>& ok,
                       double, int baseline) {
        rows.push_back({name, launch, ok, baseline});
        return int(rows.size() - 1);
    };

    const int cub_row = measure("cub::DeviceReduce::Max", [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::Max(temp, tb, in.d[r % inputs], cub_max, ::cuda::std::int64_t(n));
    }, [&](int r) {
        float m = 0;
        CHECK(cudaMemcpy(&m, cub_max, 4, cudaMemcpyDeviceToHost));
        return m == in.best[r % inputs];
    }, double(bytes), -1);
    measure("flipcheck warp_aggregated max (total_order)", value(fg::atomic_form::warp, total), value_ok, double(bytes), cub_row);
    measure("flipcheck warp_aggregated max (propagate)", value(fg::atomic_form::warp, propagate), value_ok, double(bytes), cub_row);
    measure("flipcheck warp_aggregated max (ignore)", value(fg::atomic_form::warp, ignore), value_ok, double(bytes), cub_row);
    measure("flipcheck block_shared max (total_order)", value(fg::atomic_form::block_shared, total), value_ok, double(bytes), cub_row);
    measure("flipcheck full_grid max (total_order)", value(fg::atomic_form::grid, total), value_ok, double(bytes), cub_row);

    const int cub_arg = measure("cub::DeviceReduce::ArgMax", [&](int r) {
        std::size_t tb = temp_bytes;
        cub::DeviceReduce::ArgMax(temp, tb, in.d[r % inputs], cub_max, cub_idx, ::cuda::std::int64_t(n));
    }, [&](int r) {
        ::cuda::std::int64_t i = 0;
        CHECK(cudaMemcpy(&i, cub_idx, 8, cudaMemcpyDeviceToHost));
        return index_ok(r, std::uint64_t(i));
    }, double(bytes), -1);
    const fc::policy first_index{fc::nan_policy::total_order, fc::zero_policy::ordered, fc::tie_policy::lowest_index};
    measure("flipcheck packed_atomic argmax", [&](int r) {
        cudaMemsetAsync(word64, 0, 8);
        fg::launch_packed_arg<M>(first_index, fc::reduce_op::max, batch_of(r), 1, blocks, threads, word64);
    }, [&](int r) {
        unsigned long long w = 0;
        CHECK(cudaMemcpy(&w, word64, 8, cudaMemcpyDeviceToHost));
        return index_ok(r, fg::unpack_packed<M>(first_index, fc::reduce_op::max, w));
    }, double(bytes), cub_arg);
    auto index_result = [&](int r) {
        std::uint64_t i = 0;
        CHECK(cudaMemcpy(&i, index, 8, cudaMemcpyDeviceToHost));
        return index_ok(r, i);
    };
    measure("flipcheck two_level argmax", [&](int r) {
        fg::launch_two_level_arg<M>(first_index, fc::reduce_op::max, batch_of(r), 1, blocks, threads,
                                    reinterpret_cast<std::uint64_t*>(arg_partials), arg_seen, counters, index);
    }, index_result, double(bytes), cub_arg);
    std::uint64_t thrust_index = 0;
    measure("thrust::max_element", [&](int r) {
        auto p = thrust::device_pointer_cast(in.d[r % inputs]);
        thrust_index = std::uint64_t(thrust::max_element(thrust::device, p, p + n) - p);
    }, [&](int r) { return index_ok(r, thrust_index); }, double(bytes), cub_arg);
    const int sms = prop.multiProcessorCount, reduction_block = std::min(1024, ((sms + 31) / 32) * 32);
    auto seed_launch = [&](auto first, auto final_pass) {
        return [&, first, final_pass](int r) {
            first<<<dim3(sms, 1), 1024, 32 * sizeof(seed002::ArgMaxResult)>>>(seed_blocks, in.d[r % inputs], in.offsets);
            final_pass<<<dim3(1, 1), reduction_block, (reduction_block / 32) * sizeof(seed002::ArgMaxResult)>>>(seed_blocks, uint32_t(sms));
        };
    };
    auto seed_ok = [&](int r) {
        seed002::ArgMaxResult res{};
        CHECK(cudaMemcpy(&res, seed_blocks, sizeof res, cudaMemcpyDeviceToHost));
        return index_ok(r, res.index);
    };
    measure("seed 002 as written (grid = SMs)", seed_launch(seed002::ArgMaxKernel<seed002::walkthrough>, seed002::FindMaxOfMax<seed002::walkthrough>),
            seed_ok, double(bytes), cub_arg);
    measure("seed 002 fixed (grid = SMs)", seed_launch(seed002::ArgMaxKernelFixed, seed002::FindMaxOfMaxFixed), seed_ok, double(bytes), cub_arg);

    // binary64: 2^27 doubles, the same 1 GiB per input.
    const std::size_t nd = n / 2;
    inputs_of<double> ind(nd, 5);
    auto batch_d = [&](int r) {
        return fg::batch<std::uint64_t>{reinterpret_cast<const std::uint64_t*>(ind.d[r % inputs]), ind.offsets};
    };
    // Everything the rows capture by reference lives until main returns.
    double* cub_maxd = reinterpret_cast<double*>(cub_max);
    {
        const int cub_d = measure("cub::DeviceReduce::Max (double)", [&](int r) {
            std::size_t tb = temp_bytes;
            cub::DeviceReduce::Max(temp, tb, ind.d[r % inputs], cub_maxd, ::cuda::std::int64_t(nd));
        }, [&](int r) {
            double m = 0;
            CHECK(cudaMemcpy(&m, cub_maxd, 8, cudaMemcpyDeviceToHost));
            return m == ind.best[r % inputs];
        }, double(bytes), -1);
        measure("flipcheck warp_aggregated max (double)", [&](int r) {
            cudaMemsetAsync(word64, 0, 8);
            fg::launch_reduce<MD>(fg::atomic_form::warp, total, fc::reduce_op::max,
                                  fg::batch<std::uint64_t>{reinterpret_cast<const std::uint64_t*>(ind.d[r % inputs]), ind.offsets},
                                  1, blocks, threads, word64, arg_partials, counters);
        }, [&](int r) {
            unsigned long long k = 0;
            CHECK(cudaMemcpy(&k, word64, 8, cudaMemcpyDeviceToHost));
            return MD::decode(k) == fc::bit_cast<std::uint64_t>(ind.best[r % inputs]);
        }, double(bytes), cub_d);
        const int cub_argd = measure("cub::DeviceReduce::ArgMax (double)", [&](int r) {
            std::size_t tb = temp_bytes;
            cub::DeviceReduce::ArgMax(temp, tb, ind.d[r % inputs], cub_maxd, cub_idx, ::cuda::std::int64_t(nd));
        }, [&](int r) {
            ::cuda::std::int64_t i = 0;
            CHECK(cudaMemcpy(&i, cub_idx, 8, cudaMemcpyDeviceToHost));
            return std::uint64_t(i) == ind.best_i[r % inputs];
        }, double(bytes), -1);
        measure("flipcheck packed_atomic argmax (double, 128-bit CAS)", [&](int r) {
            cudaMemsetAsync(wide, 0, sizeof(fg::wide_word));  // the identity of max
            fg::launch_packed_arg<MD>(first_index, fc::reduce_op::max, batch_d(r), 1, blocks, threads, wide);
        }, [&](int r) {
            fg::wide_word w{};
            CHECK(cudaMemcpy(&w, wide, sizeof w, cudaMemcpyDeviceToHost));
            return fg::unpack_packed<MD>(first_index, fc::reduce_op::max, w) == ind.best_i[r % inputs];
        }, double(bytes), cub_argd);
        measure("flipcheck two_level argmax (double)", [&](int r) {
            fg::launch_two_level_arg<MD>(first_index, fc::reduce_op::max, batch_d(r), 1, blocks, threads, wide_partials, arg_seen,
                                         counters, index);
        }, [&](int r) {
            std::uint64_t i = 0;
            CHECK(cudaMemcpy(&i, index, 8, cudaMemcpyDeviceToHost));
            return i == ind.best_i[r % inputs];
        }, double(bytes), cub_argd);
    }

    time_round_robin(rows, repeats);
    for (auto& r : rows) {  // each answer, checked right after its own launch
        r.launch(repeats);
        CHECK(cudaDeviceSynchronize());
        r.right = r.ok(repeats);
    }

    // How the launch shape matters (warp_aggregated max, total_order): blocks per SM x threads.
    const float cub_ms = rows[std::size_t(cub_row)].median();
    std::vector<std::string> shape_lines;
    for (unsigned per_sm : {2u, 4u, 8u, 16u, 32u})
        for (unsigned t : {128u, 256u, 512u}) {
            const unsigned b = unsigned(prop.multiProcessorCount) * per_sm;
            const float ms = median_ms(repeats, [&](int r) {
                cudaMemsetAsync(word, 0, 4);
                fg::launch_reduce<M>(fg::atomic_form::warp, total, fc::reduce_op::max, batch_of(r), 1, b, t, word,
                                     partials, counters);
            });
            char line[160];
            std::snprintf(line, sizeof line, "  %2u blocks/SM x %4u threads: %7.3f ms  %7.1f GB/s  %6.3fx CUB Max%s", per_sm, t, ms,
                          double(bytes) / (ms * 1e-3) / 1e9, cub_ms / ms, value_ok(repeats) ? "" : "  WRONG");
            shape_lines.push_back(line);
        }

    bool all_ok = true;
    std::printf("device: %s; 2^28 floats (1 GiB) and 2^27 doubles, 3 inputs rotated, median of %d round-robin runs, %u x %u threads\n",
                prop.name, repeats, blocks, threads);
    std::printf("%-46s %9s %9s %8s %s\n", "reduction", "ms", "GB/s", "vs CUB", "answer");
    for (const row& r : rows) {
        const float ms = r.median(), base = r.baseline < 0 ? ms : rows[std::size_t(r.baseline)].median();
        std::printf("%-46s %9.3f %9.1f %8.3f %s\n", r.name.c_str(), ms, double(bytes) / (ms * 1e-3) / 1e9, base / ms,
                    r.right ? "right" : "WRONG");
        all_ok = all_ok && (r.right || r.name.find("as written") != std::string::npos);
    }
    std::printf("launch shapes, warp_aggregated max (total_order), each shape timed on its own after the table:\n");
    for (const auto& l : shape_lines) std::printf("%s\n", l.c_str());
    std::printf("(vs CUB: CUB's time / this time, against Max for max rows and ArgMax for argmax rows)\n");
    // What the data was, as measured, so that a seed's "right" or "WRONG" row can be read.
    for (int k = 0; k < inputs; ++k)
        std::printf("input %d of floats: maximum %.9g (%s) at index %zu, occurring %zu time(s)\n", k, double(in.best[k]),
                    in.best[k] > 0 ? "positive" : "not positive", in.best_i[k], in.copies_of_best[k]);
    return all_ok ? 0 : 1;
}
