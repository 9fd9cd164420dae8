// Turns the statements of `call`, one at a time and in order, into Steps and Buffers of an
// OutputCode. It remembers the aliases seen so far so that reads and writes name root buffers,
// and the latest "Original ATen:" comment so that the next launch can carry it.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::inductor::detail {

// A call expression `callee(args...)` split into its parts.
struct CallExpr {
  std::string callee;             // "extern_kernels.mm", "triton_poi_fused_0.run", "buf0.copy_"
  std::vector<std::string> args;  // top-level arguments as written, keyword ones too
};

// `text` as a call expression: a dotted callee, '(' ... ')' and nothing after; nullopt otherwise.
std::optional<CallExpr> as_call(std::string_view text);

// The top-level arguments of `text` when it is a call of `callee` (`tl.load(ptr + (x0), xmask)`
// with "tl.load"), trimmed, keyword ones as written; nullopt for anything else.
std::optional<std::vector<std::string>> call_args(std::string_view text, std::string_view callee);

// Appends `name` unless already present.
void add_unique(std::vector<std::string>& names, const std::string& name);

class CallStatements {
 public:
  explicit CallStatements(OutputCode& code) : code_(code) {}

  // A comment line inside call; remembers its "Original ATen:" list when it has one.
  void comment(std::string_view text);

  // One statement (already joined over its lines, comments removed, split at ';').
  void statement(std::string_view text, int line, int end_line);

 private:
  void assignment(const std::vector<std::string>& names, std::string_view rhs, Step step);
  void expression(std::string_view text, Step step);
  void unpack_args(const std::vector<std::string>& names, int line);
  void alloc(const std::string& name, const CallExpr& call, Step step);
  void pool_alloc(const std::string& name, const CallExpr& call, Step step);
  void item(const std::string& name, const std::string& tuple, Step step);
  void alias(StepKind kind, const std::string& name, const std::string& of, Step step);
  void launch(const TritonKernel& kernel, const CallExpr& call, Step step);
  void extern_call(const std::vector<std::string>& names, const CallExpr& call, Step step);
  void fallback(const std::vector<std::string>& names, const CallExpr& call, Step step);
  void tensor_method(const std::string& receiver, const CallExpr& call, Step step);
  void assert_size(const CallExpr& call);
  void returns(std::string_view values, Step step);
  void dels(std::string_view names, Step step);

  // Defines `names` as new buffers of unknown shape (outputs of extern calls and fallbacks).
  void define_outputs(const std::vector<std::string>& names, Step& step);
  // The buffer named `name` in code_.buffers, or nullptr.
  Buffer* find_buffer(const std::string& name);
  // Sets the dtype of the root buffer `name` from a Triton pointer type when the text left it
  // unstated and its shape is known.
  void infer_dtype(const std::string& name, const std::string& pointer_type);
  // The root of an alias chain: the allocation or graph input that `name` views.
  std::string root(const std::string& name) const;
  // "buf1" for "buf1" or "reinterpret_tensor(buf1, ...)"; empty for anything else.
  static std::string buffer_ref(std::string_view arg);
  // Roots of the known buffers named anywhere in `text`.
  std::vector<std::string> buffers_in(std::string_view text) const;

  bool known(const std::string& name) const { return known_.count(name) > 0; }

  // The pending ATen ops, emptied.
  std::vector<std::string> take_aten();

  OutputCode& code_;
  std::map<std::string, std::string> alias_;  // alias name -> the name it views
  std::set<std::string> known_;               // graph inputs, buffers and aliases so far
  std::set<std::string> same_tensor_;         // aliases by plain assignment (bufN = bufM)
  std::set<std::string> op_outputs_;          // defined by an extern call or a fallback
  std::vector<std::string> pending_aten_;     // from the latest "Original ATen:" comment
};

}  // namespace kernelopt::inductor::detail
