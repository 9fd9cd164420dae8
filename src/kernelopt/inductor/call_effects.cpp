// What each kind of `call` statement defines, reads and writes.
#include <algorithm>
#include <map>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::inductor::detail {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::vector<std::string> tuple_items(std::string_view text) {
  return split_top_level(strip_brackets(text));
}

// "cuda" from "'cuda'", "'cuda:0'" or "device(type='cuda', index=0)".
std::string device_name(std::string_view text) {
  const std::size_t quote = text.find_first_of("'\"");
  if (quote == std::string_view::npos) return std::string(trim(text));
  const std::size_t end = text.find_first_of("'\":", quote + 1);
  return std::string(text.substr(quote + 1, end - quote - 1));
}

// The torch dtype of a Triton pointer type ("*fp32" -> "torch.float32"), empty when unknown.
std::string torch_dtype(std::string_view pointer_type) {
  static const std::map<std::string_view, std::string_view> dtypes = {
      {"*fp64", "torch.float64"},
      {"*fp32", "torch.float32"},
      {"*fp16", "torch.float16"},
      {"*bf16", "torch.bfloat16"},
      {"*i64", "torch.int64"},
      {"*i32", "torch.int32"},
      {"*i16", "torch.int16"},
      {"*i8", "torch.int8"},
      {"*u8", "torch.uint8"},
      {"*i1", "torch.bool"},
      {"*fp8e4nv", "torch.float8_e4m3fn"},
      {"*fp8e5", "torch.float8_e5m2"}};
  const auto it = dtypes.find(pointer_type);
  return it == dtypes.end() ? std::string() : std::string(it->second);
}

}  // namespace

void CallStatements::unpack_args(const std::vector<std::string>& names, int line) {
  for (const std::string& name : names) {
    code_.graph_inputs.push_back(name);
    known_.insert(name);
    Buffer buffer;
    buffer.name = name;
    buffer.is_graph_input = true;
    buffer.line = line;
    code_.buffers.push_back(buffer);
  }
}

void CallStatements::alloc(const std::string& name, const CallExpr& call, Step step) {
  Buffer buffer;
  buffer.name = name;
  buffer.line = step.line;
  buffer.device = call.callee.size() > 14 ? call.callee.substr(14) : "";  // empty_strided_cuda
  if (starts_with(buffer.device, "cpu")) buffer.device = "cpu";
  std::size_t position = 0;
  for (const std::string& arg : call.args) {
    const auto [key, value] = split_keyword(arg);
    if (key == "device") buffer.device = device_name(value);
    if (key == "dtype" || (key.empty() && position == 2)) buffer.dtype = value;
    if (key.empty() && position == 0) buffer.shape = tuple_items(value);
    if (key.empty() && position == 1) buffer.stride = tuple_items(value);
    if (key.empty()) ++position;
  }
  buffer.shape_known = true;
  code_.buffers.push_back(buffer);
  known_.insert(name);
  step.kind = StepKind::kAlloc;
  step.target = name;
  step.args = call.args;
  step.defines = {name};
  code_.steps.push_back(std::move(step));
}

// `bufN = alloc_from_pool(pool, offset_bytes, dtype, shape, stride)`: a tensor carved from a pool
// allocation (memory planning). It is a buffer of its own: launches name it, not the pool.
void CallStatements::pool_alloc(const std::string& name, const CallExpr& call, Step step) {
  std::vector<std::string> positional;
  for (const std::string& arg : call.args) {
    if (split_keyword(arg).first.empty()) positional.push_back(arg);
  }
  if (positional.size() < 5) return;
  Buffer buffer;
  buffer.name = name;
  buffer.line = step.line;
  buffer.dtype = positional[2];
  buffer.shape = tuple_items(positional[3]);
  buffer.stride = tuple_items(positional[4]);
  buffer.shape_known = true;
  const std::string pool = root(buffer_ref(positional[0]));
  if (const Buffer* base = find_buffer(pool)) buffer.device = base->device;
  code_.buffers.push_back(buffer);
  known_.insert(name);
  step.kind = StepKind::kAlloc;
  step.target = name;
  step.args = call.args;
  step.defines = {name};
  step.alias_of = pool;
  code_.steps.push_back(std::move(step));
}

// `bufN = bufM[k]` where bufM is the tuple a multi-output op returned: bufN is a new buffer
// (its shape comes from the assert that follows) and the op's step writes it, not the tuple.
void CallStatements::item(const std::string& name, const std::string& tuple, Step step) {
  for (std::size_t i = code_.steps.size(); i-- > 0;) {
    Step& producer = code_.steps[i];
    auto& writes = producer.writes;
    if (std::find(producer.defines.begin(), producer.defines.end(), tuple) ==
        producer.defines.end()) {
      continue;
    }
    writes.erase(std::remove(writes.begin(), writes.end(), tuple), writes.end());
    add_unique(writes, name);
    break;
  }
  code_.buffers.erase(std::remove_if(code_.buffers.begin(), code_.buffers.end(),
                                     [&](const Buffer& buffer) { return buffer.name == tuple; }),
                      code_.buffers.end());
  Buffer buffer;
  buffer.name = name;
  buffer.line = step.line;
  code_.buffers.push_back(buffer);
  known_.insert(name);
  op_outputs_.insert(name);
  step.kind = StepKind::kItem;
  step.target = name;
  step.defines = {name};
  step.alias_of = tuple;
  code_.steps.push_back(std::move(step));
}

void CallStatements::alias(StepKind kind,
                           const std::string& name,
                           const std::string& of,
                           Step step) {
  if (of.empty()) return;
  alias_[name] = of;
  known_.insert(name);
  step.kind = kind;
  step.target = name;
  step.defines = {name};
  step.alias_of = of;
  code_.steps.push_back(std::move(step));
}

void CallStatements::launch(const TritonKernel& kernel, const CallExpr& call, Step step) {
  step.kind = StepKind::kTritonLaunch;
  step.target = kernel.name;
  step.args = call.args;
  step.aten_ops = take_aten();
  if (step.aten_ops.empty()) step.aten_ops = kernel.aten_ops;
  const auto& mutated = kernel.mutated_arg_names;
  std::size_t position = 0;
  for (const std::string& arg : call.args) {
    if (!split_keyword(arg).first.empty()) continue;
    const std::size_t index = position++;
    if (index >= kernel.signature.size() || !kernel.signature[index].is_pointer()) continue;
    const std::string ref = buffer_ref(arg);
    if (ref.empty()) continue;
    const std::string& param = kernel.signature[index].name;
    const bool in_out = starts_with(param, "in_out");
    const bool out = starts_with(param, "out");
    const bool is_mutated = std::find(mutated.begin(), mutated.end(), param) != mutated.end();
    if (in_out || !out) add_unique(step.reads, root(ref));
    if (in_out || out || is_mutated) add_unique(step.writes, root(ref));
    infer_dtype(root(ref), kernel.signature[index].type);
  }
  code_.steps.push_back(std::move(step));
}

void CallStatements::infer_dtype(const std::string& name, const std::string& pointer_type) {
  Buffer* buffer = find_buffer(name);
  if (buffer == nullptr || !buffer->dtype.empty() || !buffer->shape_known) return;
  buffer->dtype = torch_dtype(pointer_type);
}

void CallStatements::define_outputs(const std::vector<std::string>& names, Step& step) {
  for (const std::string& name : names) {
    if (!known(name)) {
      Buffer buffer;
      buffer.name = name;
      buffer.line = step.line;
      code_.buffers.push_back(buffer);
      known_.insert(name);
      op_outputs_.insert(name);
    }
    step.defines.push_back(name);
    add_unique(step.writes, root(name));
  }
}

void CallStatements::extern_call(const std::vector<std::string>& names,
                                 const CallExpr& call,
                                 Step step) {
  step.kind = StepKind::kExternCall;
  step.target = call.callee.substr(std::string_view("extern_kernels.").size());
  step.args = call.args;
  step.aten_ops = take_aten();
  for (const std::string& arg : call.args) {
    const auto [key, value] = split_keyword(arg);
    for (const std::string& name : buffers_in(value)) {
      add_unique(key == "out" ? step.writes : step.reads, name);
    }
  }
  define_outputs(names, step);
  code_.steps.push_back(std::move(step));
}

void CallStatements::fallback(const std::vector<std::string>& names,
                              const CallExpr& call,
                              Step step) {
  step.kind = StepKind::kAtenFallback;
  step.target = starts_with(call.callee, "torch.ops.") ? call.callee.substr(10) : call.callee;
  step.args = call.args;
  step.aten_ops = take_aten();
  // An in-place op (aten.index_put_.default) writes its first argument.
  const std::vector<std::string> parts = split_top_level(step.target, '.');
  const bool in_place = parts.size() >= 2 && !parts[1].empty() && parts[1].back() == '_';
  bool first = true;
  for (const std::string& arg : call.args) {
    const auto [key, value] = split_keyword(arg);
    for (const std::string& name : buffers_in(value)) {
      add_unique(step.reads, name);
      if (key == "out" || (key.empty() && first && in_place)) add_unique(step.writes, name);
    }
    if (key.empty()) first = false;
  }
  define_outputs(names, step);
  code_.steps.push_back(std::move(step));
}

void CallStatements::tensor_method(const std::string& receiver, const CallExpr& call, Step step) {
  step.kind = StepKind::kAtenFallback;
  step.target = "Tensor." + call.callee.substr(call.callee.rfind('.') + 1);
  step.args = call.args;
  step.aten_ops = take_aten();
  for (const std::string& arg : call.args) {
    for (const std::string& name : buffers_in(split_keyword(arg).second)) {
      add_unique(step.reads, name);
    }
  }
  step.writes = {root(receiver)};
  code_.steps.push_back(std::move(step));
}

// Checks a graph input or an op's output: its shape and stride become known. An alias by plain
// assignment (`buf1 = buf0` after a fallback) is the same tensor, so the check applies to its
// root; a view or an element of a tuple is not.
void CallStatements::assert_size(const CallExpr& call) {
  if (call.args.size() < 3) return;
  std::string name = call.args[0];
  for (std::size_t hops = 0; same_tensor_.count(name) > 0 && hops <= alias_.size(); ++hops) {
    name = alias_.at(name);
  }
  Buffer* buffer = find_buffer(name);
  if (buffer == nullptr) return;
  if (name != call.args[0] && buffer->shape_known) return;
  buffer->shape = tuple_items(call.args[1]);
  buffer->stride = tuple_items(call.args[2]);
  buffer->shape_known = true;
}

void CallStatements::returns(std::string_view values, Step step) {
  step.kind = StepKind::kReturn;
  step.target = "return";
  for (const std::string& item : tuple_items(values)) {
    step.args.push_back(item);
    const std::string ref = buffer_ref(item);
    if (ref.empty() || !known(ref)) continue;
    code_.returns.push_back(root(ref));
    add_unique(step.reads, root(ref));
  }
  code_.steps.push_back(std::move(step));
}

void CallStatements::dels(std::string_view names, Step step) {
  step.kind = StepKind::kDel;
  step.args = split_top_level(names);
  if (step.args.empty()) return;
  step.target = step.args.front();
  code_.steps.push_back(std::move(step));
}

}  // namespace kernelopt::inductor::detail
