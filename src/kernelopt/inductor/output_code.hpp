// The model of one Inductor output-code module (the Python file Inductor writes for one compiled
// graph): its Triton kernels, its buffers and the statements of its `call` in order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::inductor {

// What kind of Triton kernel Inductor generated, from its heuristics decorator.
enum class KernelKind {
  kPointwise,             // @triton_heuristics.pointwise
  kReduction,             // @triton_heuristics.reduction (looped over R0_BLOCK / RBLOCK)
  kPersistentReduction,   // @triton_heuristics.persistent_reduction
  kTemplate,              // @triton_heuristics.template (max-autotune mm/conv templates)
  kSplitScan,             // @triton_heuristics.split_scan
  kForeach,               // @triton_heuristics.foreach
  kUser,                  // @triton_heuristics.user_autotune (user-written Triton kernel)
  kCooperativeReduction,  // @triton_heuristics.cooperative_reduction (RSPLIT programs per row)
  kOther                  // a decorator we do not know yet: kept, not understood
};

// One kernel argument of a Triton signature, e.g. {"in_ptr0", "*fp32"}.
struct SignatureArg {
  std::string name;  // parameter name in the @triton.jit function
  std::string type;  // "*fp32", "i32", "constexpr", "fp32", ...

  bool is_pointer() const { return !type.empty() && type[0] == '*'; }

  bool operator==(const SignatureArg&) const = default;
};

// One Triton kernel defined by `name = async_compile.triton('name', '''source''', ...)`.
struct TritonKernel {
  std::string name;                      // e.g. "triton_poi_fused_relu_0"
  KernelKind kind = KernelKind::kOther;  // from the decorator
  std::string source;                    // the whole Triton module text between the ''' quotes
  std::map<std::string, std::int64_t> size_hints;  // {"x": 4194304, "r0_": 1024}; old list form
                                                   // [a, b] maps to "x", "y"/"r0_" by kind
  std::vector<SignatureArg> signature;             // in parameter order
  std::string reduction_hint;                  // "INNER", "OUTER", "OUTER_TINY", "DEFAULT" or empty
  std::vector<std::string> mutated_arg_names;  // inductor_meta['mutated_arg_names']
  std::int64_t num_load = -1;                  // inductor_meta['num_load'], -1 when absent
  std::int64_t num_reduction = -1;             // inductor_meta['num_reduction'], -1 when absent
  std::vector<std::string> aten_ops;           // "Original ATen: [aten.relu, ...]" comment above it
  std::string source_nodes;                    // "Topologically Sorted Source Nodes: [...]" text
  std::string graph_fragment;  // the "# Graph fragment:" comment lines, '# ' stripped
  int line = 0;                // 1-based line of `name = async_compile.triton(`
  // The launch settings Inductor's autotuner chose when the graph ran ({"XBLOCK": 1024,
  // "num_warps": 4, ...}), from the capture; empty when unknown (not in the output code's text).
  nlohmann::json autotuned = nlohmann::json::object();
};

// A buffer created by the wrapper: `buf0 = empty_strided_cuda((16, 64), (64, 1), torch.float32)`
// or a graph input checked by `assert_size_stride(arg0_1, (16, 64), (64, 1))`.
struct Buffer {
  std::string name;                 // "buf0", "arg0_1", "primals_1"
  std::vector<std::string> shape;   // as written: "16", "s0", "4*s0"
  std::vector<std::string> stride;  // as written
  std::string dtype;                // "torch.float32"; empty when unknown. Graph inputs take it
                                    // from get_args' rand_strided; a buffer whose shape is known
                                    // but whose dtype is not stated (an extern output checked by
                                    // assert_size_stride) takes it from the pointer type of a
                                    // Triton launch that uses it ("*fp32" -> torch.float32)
  std::string device;               // "cuda", "cpu"
  bool is_graph_input = false;      // named in `arg0_1, arg1_1, = args`
  bool shape_known = false;         // shape and stride are stated by the text (allocation,
                                    // assert_size_stride or rand_strided); when false they are
                                    // empty but the tensor is not 0-d: its shape is unknown
  int line = 0;                     // 1-based line where it is defined
};

// What one statement of `call` does.
enum class StepKind {
  kAlloc,         // bufN = empty_strided_cuda(...) / empty_strided_cpu / empty_strided, or
                  // bufN = alloc_from_pool(poolM, offset, dtype, shape, stride)
  kReinterpret,   // bufN = reinterpret_tensor(bufM, shape, stride, offset)
  kReuse,         // bufN = bufM; del bufM  # reuse
  kItem,          // bufN = bufM[k]: output k of a multi-output extern call or fallback (bufM
                  // is a tuple); bufN is a buffer of its own and the op's step writes it
  kDel,           // del bufN
  kTritonLaunch,  // kernel.run(args..., grid=..., stream=streamN)
  kExternCall,    // extern_kernels.mm(...), bufN = extern_kernels.convolution(...)
  kAtenFallback,  // torch.ops.aten.*, aten.*, or a tensor method that runs on the GPU
                  // (.copy_, .zero_, .fill_)
  kReturn         // return (buf0, buf1, )
};

// One statement of `call` that matters to the dispatch map. Lines that do not matter (asserts,
// device guards, stream lookups, comments) are not steps.
struct Step {
  StepKind kind = StepKind::kAlloc;
  int line = 0;                       // 1-based first line of the statement in the output code
  int end_line = 0;                   // 1-based last line (a statement may span several lines)
  std::string text;                   // the statement as written, without leading indentation
  std::string target;                 // kernel name (launch), op name (extern: "mm", "convolution";
                                      // fallback: "aten.cumsum.default"), or the buffer defined
  std::vector<std::string> args;      // top-level call arguments as written (keyword ones too,
                                      // as "out=buf0")
  std::vector<std::string> defines;   // buffers this statement assigns (lhs names)
  std::vector<std::string> reads;     // buffers the launch reads (root names after aliasing)
  std::vector<std::string> writes;    // buffers the launch writes (root names after aliasing)
  std::vector<std::string> aten_ops;  // from the nearest preceding "Original ATen:" comment
  std::string alias_of;  // kReinterpret / kReuse: the buffer it views; kItem: the tuple;
                         // kAlloc from a pool: the pool buffer it is carved from
};

// One compiled graph's output code, parsed.
struct OutputCode {
  std::vector<TritonKernel> kernels;      // in definition order
  std::vector<Buffer> buffers;            // graph inputs first, then allocations, in order
  std::vector<std::string> graph_inputs;  // names unpacked from args, in order
  std::vector<Step> steps;                // the statements of call, in order
  std::vector<std::string> returns;       // names in the return tuple (root names)
  std::string call_style;                 // "def call" or "Runner.call"
  int call_line = 0;                      // 1-based line of `def call(` (inside Runner or not)

  // The kernel with this name, or nullptr.
  const TritonKernel* kernel(const std::string& name) const;
  // The buffer with this name, or nullptr.
  const Buffer* buffer(const std::string& name) const;
};

// Parses Inductor's output code. Tolerates format drift between torch versions (RBLOCK vs
// R0_BLOCK, grid= vs grid-less launches, def call vs Runner, stream0 vs raw_stream0, list vs dict
// size hints). Throws kernelopt::Error tagged "kernelopt.parse" when the text has no `call`.
OutputCode parse_output_code(const std::string& text);

// Whether a step launches GPU work: a Triton kernel, an extern call or an ATen fallback.
bool is_launch(StepKind kind);

// Stable names for the enums, used in JSON and reports.
std::string to_string(KernelKind kind);
std::string to_string(StepKind kind);

// The parsed model as JSON (the golden-file format).
nlohmann::json to_json(const OutputCode& code);

}  // namespace kernelopt::inductor
