#pragma once
// The "# Graph fragment:" comment Inductor writes above a Triton kernel: the FX nodes the kernel
// computes, one per line, e.g.
//   %arg0_1 : Tensor "f32[128, 4096, 4095][16773120, 4095, 1]cuda:0" = PlaceHolder[target=arg0_1]
//   %argmax : Tensor "i64[128, 4095][4095, 1]cuda:0"[num_users=1] =
//       call_function[target=torch.ops.aten.argmax.default](args = (%arg0_1, 1), kwargs = {})
//   return %argmax
// Recipes match on these nodes (the op, its arguments, the shapes, strides and dtypes).
#include <string>
#include <string_view>
#include <vector>

namespace kernelopt::inductor {

struct FragmentNode {
  std::string name;                 // without '%': "argmax", "arg0_1"
  std::string dtype;                // Inductor's short form: "f32", "i64", "bf16"; empty if none
  std::vector<std::string> shape;   // as written ("128", "s0")
  std::vector<std::string> stride;  // as written
  std::string op;                   // "placeholder", "call_function", ... (lower case)
  std::string target;               // "torch.ops.aten.argmax.default", or the placeholder's name
  std::vector<std::string> args;    // top-level positional arguments as written ("%arg0_1", "1",
                                    // "[2, 3]")
  std::vector<std::string> kwargs;  // "correction: 0", "keepdim: True"
};

struct GraphFragment {
  std::vector<FragmentNode> nodes;   // in the order written
  std::vector<std::string> returns;  // names after "return", without '%'
};

// Parses the text of TritonKernel::graph_fragment. Lines it does not understand are skipped
// (never throws): a fragment is a hint for matching, the output code stays the authority.
GraphFragment parse_graph_fragment(std::string_view text);

// The node that defines `name`, or nullptr.
const FragmentNode* find_node(const GraphFragment& fragment, std::string_view name);

}  // namespace kernelopt::inductor
