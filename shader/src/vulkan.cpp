// See vulkan.hpp. The loader's C API, called directly: a table of the functions used, filled from
// vkGetInstanceProcAddr / vkGetDeviceProcAddr after dlopen, so nothing links against libvulkan.
#define VK_NO_PROTOTYPES
#include "flipcheck/shader/vulkan.hpp"

#include <dlfcn.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

// Vulkan's structs are written the way its samples write them: {sType, pNext} and then the fields
// that matter, the rest zero. -Wextra would name every field left out.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace flipcheck::shader {
namespace {

std::string result_name(VkResult r) {
    switch (r) {
#define FLIPCHECK_VK_RESULT(x) \
    case x: return #x;
        FLIPCHECK_VK_RESULT(VK_NOT_READY)
        FLIPCHECK_VK_RESULT(VK_TIMEOUT)
        FLIPCHECK_VK_RESULT(VK_INCOMPLETE)
        FLIPCHECK_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        FLIPCHECK_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        FLIPCHECK_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        FLIPCHECK_VK_RESULT(VK_ERROR_DEVICE_LOST)
        FLIPCHECK_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        FLIPCHECK_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        FLIPCHECK_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        FLIPCHECK_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        FLIPCHECK_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        FLIPCHECK_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        FLIPCHECK_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
        FLIPCHECK_VK_RESULT(VK_ERROR_UNKNOWN)
#undef FLIPCHECK_VK_RESULT
        default: return "VkResult " + std::to_string(int(r));
    }
}

// The functions flipcheck calls, by level.
#define FLIPCHECK_VK_INSTANCE_FUNCTIONS(X)                                                                      \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)                         \
    X(vkGetPhysicalDeviceProperties2) X(vkGetPhysicalDeviceFeatures2) X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr)
#define FLIPCHECK_VK_DEVICE_FUNCTIONS(X)                                                                           \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements)  \
    X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory)                    \
    X(vkCreateShaderModule) X(vkDestroyShaderModule) X(vkCreateDescriptorSetLayout)                              \
    X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout)                         \
    X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool)        \
    X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets) X(vkCreateCommandPool) X(vkDestroyCommandPool)         \
    X(vkAllocateCommandBuffers) X(vkResetCommandPool) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)              \
    X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) X(vkCmdPushConstants) X(vkCmdDispatch)                       \
    X(vkCmdPipelineBarrier) X(vkCmdResetQueryPool) X(vkCmdWriteTimestamp) X(vkCreateQueryPool)                   \
    X(vkDestroyQueryPool) X(vkGetQueryPoolResults) X(vkQueueSubmit) X(vkCreateFence) X(vkDestroyFence)          \
    X(vkWaitForFences) X(vkResetFences)

// How long one submission may run before flipcheck calls the device hung (the 2^32 sweep on
// lavapipe is not run; the largest CI job takes seconds).
constexpr std::uint64_t fence_timeout_ns = 300ull * 1000 * 1000 * 1000;

}  // namespace

std::string device_info::text() const {
    return name + ", driver " + driver + (driver_info.empty() ? "" : " " + driver_info) + ", Vulkan " + api;
}

struct vulkan::state {
    void* loader = nullptr;
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define FLIPCHECK_VK_DECLARE(f) PFN_##f f = nullptr;
    FLIPCHECK_VK_INSTANCE_FUNCTIONS(FLIPCHECK_VK_DECLARE)
    FLIPCHECK_VK_DEVICE_FUNCTIONS(FLIPCHECK_VK_DECLARE)
#undef FLIPCHECK_VK_DECLARE
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    std::uint32_t family = 0;
    bool timestamps = false;
    double timestamp_period_ns = 1;
    std::uint32_t host_memory_type = 0;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
    VkCommandPool command_pool = VK_NULL_HANDLE;
    std::map<std::string, VkPipeline> pipelines;  // by module words, entry and specialization
    // What every run reuses (a driver may take milliseconds to allocate and pin host memory, and
    // a check makes thousands of runs): the two buffers, grown as needed, their descriptor set, one
    // command buffer, one fence and the timestamp queries.
    struct host_buffer {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        void* mapped = nullptr;
        std::size_t words = 0;
    } in, out;
    VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    device_info info;
    std::mutex lock;

    void check(VkResult r, std::string_view what) const {
        if (r == VK_SUCCESS) return;
        std::string m = std::string(what) + " failed: " + result_name(r);
        if (r == VK_ERROR_DEVICE_LOST) m += " (the device was lost: no result from it can be trusted)";
        throw vulkan_error(m + " on " + (info.name.empty() ? "the Vulkan device" : info.name));
    }
    void release(host_buffer& b) {
        if (b.buffer) vkDestroyBuffer(device, b.buffer, nullptr);
        if (b.memory) vkFreeMemory(device, b.memory, nullptr);  // unmaps it too
        b = {};
    }
    ~state() {
        if (device) {
            release(in);
            release(out);
            if (fence) vkDestroyFence(device, fence, nullptr);
            if (queries) vkDestroyQueryPool(device, queries, nullptr);
            if (descriptor_pool) vkDestroyDescriptorPool(device, descriptor_pool, nullptr);
            for (auto& [k, p] : pipelines) vkDestroyPipeline(device, p, nullptr);
            if (command_pool) vkDestroyCommandPool(device, command_pool, nullptr);
            if (pipeline_layout) vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
            if (set_layout) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
            vkDestroyDevice(device, nullptr);
        }
        if (instance) vkDestroyInstance(instance, nullptr);
        // The loader stays loaded: drivers register atexit handlers that run after this.
    }

    void open();
    VkPipeline pipeline(const job& j);
    void grow(host_buffer& b, std::size_t words);
    void prepare(std::size_t in_words, std::size_t out_words);
};

void vulkan::state::grow(host_buffer& b, std::size_t words) {
    words = std::max<std::size_t>(words, 1);
    if (b.words >= words) return;
    release(b);
    words = std::max(words, std::size_t(1) << 16);
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = words * 4;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    check(vkCreateBuffer(device, &bci, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    if (!(req.memoryTypeBits & (1u << host_memory_type)))
        throw vulkan_error(info.name + ": a storage buffer cannot live in host-visible memory");
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = host_memory_type;
    check(vkAllocateMemory(device, &mai, nullptr, &b.memory), "vkAllocateMemory (" + std::to_string(req.size) + " bytes)");
    check(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    b.words = words;
}

// Buffers big enough for the job, and the descriptor set pointing at them (rewritten each run:
// cheap, and the set is idle once the previous run's fence has signalled).
void vulkan::state::prepare(std::size_t in_words, std::size_t out_words) {
    grow(in, in_words);
    grow(out, out_words);
    VkDescriptorBufferInfo bi[2]{{in.buffer, 0, VK_WHOLE_SIZE}, {out.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[2]{};
    for (std::uint32_t i = 0; i < 2; ++i) {
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &bi[i];
    }
    vkUpdateDescriptorSets(device, 2, w, 0, nullptr);
}

void vulkan::state::open() {
    for (const char* name : {"libvulkan.so.1", "libvulkan.so"})
        if ((loader = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!loader)
        throw vulkan_unavailable("no Vulkan loader (libvulkan.so.1) on this machine: install it (Debian: libvulkan1, "
                                 "and mesa-vulkan-drivers for lavapipe, a Vulkan device on the CPU)");
    vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(loader, "vkGetInstanceProcAddr"));
    if (!vkGetInstanceProcAddr) throw vulkan_unavailable("libvulkan.so.1 has no vkGetInstanceProcAddr: not a Vulkan loader");
    auto create_instance = reinterpret_cast<PFN_vkCreateInstance>(vkGetInstanceProcAddr(nullptr, "vkCreateInstance"));
    auto instance_version =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
    std::uint32_t loader_version = VK_API_VERSION_1_0;
    if (instance_version) instance_version(&loader_version);
    if (loader_version < VK_API_VERSION_1_2)
        throw vulkan_unavailable("the Vulkan loader is older than 1.2; flipcheck's shaders need Vulkan 1.2");
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "flipcheck";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    const VkResult made = create_instance(&ici, nullptr, &instance);
    if (made == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw vulkan_unavailable("the Vulkan loader found no driver (no ICD): install one (Debian: mesa-vulkan-drivers)");
    check(made, "vkCreateInstance");
#define FLIPCHECK_VK_LOAD(f) f = reinterpret_cast<PFN_##f>(vkGetInstanceProcAddr(instance, #f));
    FLIPCHECK_VK_INSTANCE_FUNCTIONS(FLIPCHECK_VK_LOAD)
#undef FLIPCHECK_VK_LOAD

    std::uint32_t n = 0;
    VkResult listed = vkEnumeratePhysicalDevices(instance, &n, nullptr);
    if (listed == VK_ERROR_INITIALIZATION_FAILED || n == 0)
        throw vulkan_unavailable("no Vulkan device: the loader found no driver with a device (for lavapipe, a device on "
                                 "the CPU, install Debian's mesa-vulkan-drivers)");
    check(listed, "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> all(n);
    check(vkEnumeratePhysicalDevices(instance, &n, all.data()), "vkEnumeratePhysicalDevices");
    const char* want = std::getenv("FLIPCHECK_VULKAN_DEVICE");
    std::string names;
    for (auto d : all) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(d, &p);
        names += std::string(names.empty() ? "" : ", ") + p.deviceName;
        const bool named = want && *want && std::string_view(p.deviceName).find(want) != std::string_view::npos;
        if (named || (!(want && *want) && !physical)) physical = d;
        if (!(want && *want) && p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
            physical = d;
            break;
        }
        if (named) break;
    }
    if (!physical)
        throw vulkan_unavailable("FLIPCHECK_VULKAN_DEVICE=" + std::string(want) + " names none of the Vulkan devices: " + names);

    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(physical, &props);
    if (props.apiVersion < VK_API_VERSION_1_2)
        throw vulkan_unavailable(std::string(props.deviceName) + " supports Vulkan " +
                                 std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." +
                                 std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) + " only; flipcheck needs 1.2");
    VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &p12};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p11};
    vkGetPhysicalDeviceProperties2(physical, &p2);
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    vkGetPhysicalDeviceFeatures2(physical, &f2);

    info.name = props.deviceName;
    info.vendor_id = props.vendorID;
    info.driver = p12.driverName;
    info.driver_info = p12.driverInfo;
    info.api = std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." + std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) +
               "." + std::to_string(VK_API_VERSION_PATCH(props.apiVersion));
    info.float16 = f12.shaderFloat16 && f2.features.shaderInt16;
    info.int16 = f2.features.shaderInt16;
    info.subgroup_size = p11.subgroupSize;
    info.subgroup_arithmetic = (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                               (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
    info.max_workgroup_size = std::min(props.limits.maxComputeWorkGroupSize[0], props.limits.maxComputeWorkGroupInvocations);
    info.denorm_preserve32 = p12.shaderDenormPreserveFloat32;
    info.denorm_flush32 = p12.shaderDenormFlushToZeroFloat32;
    info.signed_zero_inf_nan32 = p12.shaderSignedZeroInfNanPreserveFloat32;

    std::uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, nullptr);
    std::vector<VkQueueFamilyProperties> families(nf);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, families.data());
    bool found = false;
    for (std::uint32_t i = 0; i < nf && !found; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            family = i;
            found = true;
            timestamps = families[i].timestampValidBits > 0 && props.limits.timestampComputeAndGraphics;
        }
    if (!found) throw vulkan_unavailable(info.name + " has no compute queue");
    timestamp_period_ns = props.limits.timestampPeriod;

    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(physical, &mem);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    host_memory_type = mem.memoryTypeCount;
    for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i)
        if ((mem.memoryTypes[i].propertyFlags & host) == host) {
            host_memory_type = i;
            break;
        }
    if (host_memory_type == mem.memoryTypeCount) throw vulkan_error(info.name + " has no host-visible coherent memory");

    const float priority = 1;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    // Only what the shaders use, and only where the device has it: float16 arithmetic.
    VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    e12.shaderFloat16 = info.float16;
    VkPhysicalDeviceFeatures2 e2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &e12};
    e2.features.shaderInt16 = info.int16;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &e2};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    check(vkCreateDevice(physical, &dci, nullptr, &device), "vkCreateDevice");
#define FLIPCHECK_VK_LOAD(f) f = reinterpret_cast<PFN_##f>(vkGetDeviceProcAddr(device, #f));
    FLIPCHECK_VK_DEVICE_FUNCTIONS(FLIPCHECK_VK_LOAD)
#undef FLIPCHECK_VK_LOAD
    vkGetDeviceQueue(device, family, 0, &queue);

    // The one binding layout every flipcheck shader declares: 0 = input words, 1 = output words,
    // up to four push-constant words.
    VkDescriptorSetLayoutBinding b[2]{};
    for (std::uint32_t i = 0; i < 2; ++i) {
        b[i].binding = i;
        b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo sli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sli.bindingCount = 2;
    sli.pBindings = b;
    check(vkCreateDescriptorSetLayout(device, &sli, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &set_layout;
    pli.pushConstantRangeCount = 1;
    pli.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(device, &pli, nullptr, &pipeline_layout), "vkCreatePipelineLayout");
    VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpi.queueFamilyIndex = family;
    check(vkCreateCommandPool(device, &cpi, nullptr, &command_pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbi.commandPool = command_pool;
    cbi.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbi.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device, &cbi, &command_buffer), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(device, &fci, nullptr, &fence), "vkCreateFence");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &size;
    check(vkCreateDescriptorPool(device, &dpi, nullptr, &descriptor_pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dsi{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsi.descriptorPool = descriptor_pool;
    dsi.descriptorSetCount = 1;
    dsi.pSetLayouts = &set_layout;
    check(vkAllocateDescriptorSets(device, &dsi, &set), "vkAllocateDescriptorSets");
    if (timestamps) {
        VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpi.queryCount = 2;
        check(vkCreateQueryPool(device, &qpi, nullptr, &queries), "vkCreateQueryPool");
    }
}

VkPipeline vulkan::state::pipeline(const job& j) {
    if (j.spirv.empty() || j.spirv[0] != 0x07230203u)
        throw vulkan_error("not a SPIR-V module (no magic number 0x07230203 in its first word)");
    std::string key(reinterpret_cast<const char*>(j.spirv.data()), j.spirv.size_bytes());
    key += '\0' + j.entry;
    for (auto [id, v] : j.specialization) key += "," + std::to_string(id) + "=" + std::to_string(v);
    if (auto it = pipelines.find(key); it != pipelines.end()) return it->second;

    VkShaderModuleCreateInfo smi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smi.codeSize = j.spirv.size_bytes();
    smi.pCode = j.spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device, &smi, nullptr, &module), "vkCreateShaderModule");
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<std::uint32_t> values;
    for (auto [id, v] : j.specialization) {
        entries.push_back({id, std::uint32_t(values.size() * 4), 4});
        values.push_back(v);
    }
    VkSpecializationInfo spec{std::uint32_t(entries.size()), entries.data(), values.size() * 4, values.data()};
    VkComputePipelineCreateInfo cpi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = module;
    cpi.stage.pName = j.entry.c_str();
    cpi.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
    cpi.layout = pipeline_layout;
    VkPipeline p = VK_NULL_HANDLE;
    const VkResult r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, nullptr, &p);
    vkDestroyShaderModule(device, module, nullptr);
    check(r, "vkCreateComputePipelines (entry point \"" + j.entry + "\")");
    pipelines.emplace(std::move(key), p);
    return p;
}

vulkan::vulkan() : s_(std::make_unique<state>()) { s_->open(); }
vulkan::~vulkan() = default;

vulkan& vulkan::get() {
    // Opened once; a failure to open is remembered and thrown again, so every test that asks
    // gets the same answer without retrying a broken driver. Never destroyed: NVIDIA's driver
    // tears itself down in an atexit handler registered while the instance is made, which runs
    // before a static object's destructor would, and vkDestroyDevice after it crashes. The
    // process's exit frees everything.
    static std::once_flag once;
    static vulkan* device = nullptr;
    static std::string unavailable, error;
    std::call_once(once, [] {
        try {
            device = new vulkan();
        } catch (const vulkan_unavailable& e) {
            unavailable = e.what();
        } catch (const vulkan_error& e) {
            error = e.what();
        }
    });
    if (!unavailable.empty()) throw vulkan_unavailable(unavailable);
    if (!error.empty()) throw vulkan_error(error);
    return *device;
}

const device_info& vulkan::info() const { return s_->info; }

job_result vulkan::run(const job& j) {
    state& s = *s_;
    std::lock_guard guard(s.lock);
    const VkPipeline pipeline = s.pipeline(j);
    s.prepare(j.input.size(), j.output_words);
    if (!j.input.empty()) std::memcpy(s.in.mapped, j.input.data(), j.input.size_bytes());
    std::memset(s.out.mapped, 0, std::max<std::size_t>(j.output_words, 1) * 4);

    s.check(s.vkResetCommandPool(s.device, s.command_pool, 0), "vkResetCommandPool");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    const VkCommandBuffer cb = s.command_buffer;
    s.check(s.vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    if (s.queries) {
        s.vkCmdResetQueryPool(cb, s.queries, 0, 2);
        s.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.queries, 0);
    }
    s.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    s.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipeline_layout, 0, 1, &s.set, 0, nullptr);
    for (const auto& d : j.dispatches) {
        std::uint32_t push[4]{};
        std::copy_n(d.push.begin(), std::min<std::size_t>(d.push.size(), 4), push);
        s.vkCmdPushConstants(cb, s.pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
        if (d.groups) s.vkCmdDispatch(cb, d.groups, 1, 1);
    }
    if (s.queries) s.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 1);
    // The host reads the output after the fence: make the shader's writes visible to it.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    s.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    s.check(s.vkEndCommandBuffer(cb), "vkEndCommandBuffer");

    s.check(s.vkResetFences(s.device, 1, &s.fence), "vkResetFences");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    s.check(s.vkQueueSubmit(s.queue, 1, &si, s.fence), "vkQueueSubmit");
    const VkResult waited = s.vkWaitForFences(s.device, 1, &s.fence, VK_TRUE, fence_timeout_ns);
    if (waited == VK_TIMEOUT)
        throw vulkan_error("the shader did not finish within " + std::to_string(fence_timeout_ns / 1000000000) + " s on " +
                           s.info.name + " (an endless loop, or a barrier some invocations never reach?)");
    s.check(waited, "vkWaitForFences");

    job_result r;
    r.output.resize(j.output_words);
    std::memcpy(r.output.data(), s.out.mapped, j.output_words * 4);
    r.gpu_ms = -1;
    if (s.queries) {
        std::uint64_t t[2]{};
        s.check(s.vkGetQueryPoolResults(s.device, s.queries, 0, 2, sizeof t, t, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                "vkGetQueryPoolResults");
        r.gpu_ms = double(t[1] - t[0]) * s.timestamp_period_ns / 1e6;
    }
    return r;
}

}  // namespace flipcheck::shader
