#include "read_limit_options.hpp"

#include <algorithm>
#include <thread>

namespace po = boost::program_options;

namespace assbin::cli {

po::options_description read_limit_options() {
    const ReadLimits defaults;
    po::options_description options("reader limits (each error names the limit it hit; raise it to read on)");
    options.add_options()(
        "max-inflated-mb",
        po::value<uint64_t>()->default_value(defaults.max_inflated_bytes >> 20)->value_name("N"),
        "largest inflated body of a compressed dump, in MiB")(
        "max-inflate-ratio",
        po::value<uint64_t>()->default_value(defaults.max_inflate_ratio)->value_name("N"),
        "largest inflated body as a multiple of the compressed stream (real dumps: up to 256)")(
        "max-node-depth", po::value<uint32_t>()->default_value(defaults.max_node_depth)->value_name("N"),
        "deepest node nesting read")(
        "max-allocation-ratio",
        po::value<uint64_t>()->default_value(defaults.max_allocation_ratio)->value_name("N"),
        "most memory the scene may take, as a multiple of the body size (plus 16 MiB)")(
        "strict", "refuse a dump with bytes after its SCENE chunk (by default they are read past, as "
                  "Assimp's loader does, and reported)");
    return options;
}

ReadOptions read_options_from(const po::variables_map& vm) {
    ReadOptions options;
    ReadLimits& limits = options.limits;
    if (vm.count("max-inflated-mb")) {
        const uint64_t mebibytes = vm["max-inflated-mb"].as<uint64_t>();
        limits.max_inflated_bytes = mebibytes > (UINT64_MAX >> 20) ? UINT64_MAX : mebibytes << 20;
    }
    if (vm.count("max-inflate-ratio")) limits.max_inflate_ratio = vm["max-inflate-ratio"].as<uint64_t>();
    if (vm.count("max-node-depth")) limits.max_node_depth = vm["max-node-depth"].as<uint32_t>();
    if (vm.count("max-allocation-ratio"))
        limits.max_allocation_ratio = vm["max-allocation-ratio"].as<uint64_t>();
    options.refuse_trailing_bytes = vm.count("strict") != 0;
    return options;
}

po::options_description jobs_option(const char* what) {
    po::options_description options("threads");
    options.add_options()("jobs,j", po::value<long>()->value_name("N"), what);
    return options;
}

std::optional<unsigned> jobs_from(const po::variables_map& vm) {
    if (!vm.count("jobs")) return std::max(1u, std::thread::hardware_concurrency());
    const long jobs = vm["jobs"].as<long>();
    if (jobs < 1 || jobs > 1024) return std::nullopt;
    return static_cast<unsigned>(jobs);
}

} // namespace assbin::cli
