#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

nlohmann::json ask_gate(GateContext& ctx,
                        const nlohmann::json& request,
                        const std::string& gate,
                        Outcome& failed) {
  if (ctx.ensure_ready) ctx.ensure_ready();
  const worker::Reply reply = ctx.worker->request(request, ctx.deadline);
  failed = Outcome{Status::kOk, gate, "", nlohmann::json::object()};
  switch (reply.failure) {
    case worker::Failure::kNone:
      break;
    case worker::Failure::kTimedOut:
      failed.status = Status::kTimedOut;
      failed.detail =
          fmt::format("no answer within {} s; the worker was killed", ctx.deadline.count() / 1000);
      return nullptr;
    case worker::Failure::kCrashed:
    case worker::Failure::kBadOutput:
      failed.status = Status::kCrashed;
      failed.detail =
          fmt::format("the worker died ({})", reply.exit_status < 0
                                                  ? fmt::format("signal {}", -reply.exit_status)
                                                  : fmt::format("exit {}", reply.exit_status));
      return nullptr;
  }
  if (!reply.response.value("ok", false)) {
    const auto error = reply.response.value("error", nlohmann::json::object());
    failed.status = error.value("tag", "") == "kernelopt.cuda" ? Status::kCrashed : Status::kRaised;
    failed.detail = error.value("message", "the worker reported an error");
    return nullptr;
  }
  return reply.response;
}

}  // namespace kernelopt::gate
