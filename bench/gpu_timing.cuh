// What the GPU benchmarks share: CUDA calls that exit with the call's name on failure, and rows
// timed round robin with cudaEvents, so that clock or thermal drift during a run weighs on all
// rows alike instead of on whichever is measured last.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#define CHECK(x)                                                         \
    do {                                                                 \
        cudaError_t e = (x);                                             \
        if (e != cudaSuccess) {                                          \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); \
            std::exit(1);                                                \
        }                                                                \
    } while (0)

struct row {
    std::string name;
    std::function<void(int)> launch;  // launch(r): one run on input r % (the bench's input count)
    std::function<bool(int)> ok;      // ok(r): the answer of the last launch(r) is the host's
    int baseline;                     // the row it is compared with (-1: itself)
    std::vector<float> ms{};
    bool right = false;
    float median() const {
        std::vector<float> v = ms;
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    }
};

// One warm-up launch of every row (first-launch costs, library allocations), then `repeats`
// rounds, each timing every row once.
inline void time_round_robin(std::vector<row>& rows, int repeats) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (auto& r : rows) r.launch(0);
    CHECK(cudaDeviceSynchronize());
    for (int k = 1; k <= repeats; ++k)
        for (auto& r : rows) {
            CHECK(cudaEventRecord(a));
            r.launch(k);
            CHECK(cudaEventRecord(b));
            CHECK(cudaEventSynchronize(b));
            float t = 0;
            CHECK(cudaEventElapsedTime(&t, a, b));
            r.ms.push_back(t);
        }
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
}
