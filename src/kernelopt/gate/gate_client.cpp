// How the gates ask the worker, and what a request that brought no numbers means for a gate.
#include <fmt/format.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt::gate {

worker::Client gate_client(GateContext& ctx) {
  return worker::Client([&ctx](const nlohmann::json& request, std::chrono::milliseconds deadline) {
    if (ctx.ensure_ready) ctx.ensure_ready();
    return ctx.worker->request(request, deadline);
  });
}

Outcome refused(const GateContext& ctx, const worker::Answered& answer, const std::string& gate) {
  KO_CHECK(!answer.ok());
  Outcome failed{Status::kOk, gate, "", nlohmann::json::object()};
  const worker::Reply& reply = answer.reply;
  switch (reply.failure) {
    case worker::Failure::kNone:
      break;
    case worker::Failure::kTimedOut:
      failed.status = Status::kTimedOut;
      failed.detail =
          fmt::format("no answer within {} s; the worker was killed", ctx.deadline.count() / 1000);
      return failed;
    case worker::Failure::kCrashed:
    case worker::Failure::kBadOutput:
      failed.status = Status::kCrashed;
      failed.detail =
          fmt::format("the worker died ({})", reply.exit_status < 0
                                                  ? fmt::format("signal {}", -reply.exit_status)
                                                  : fmt::format("exit {}", reply.exit_status));
      return failed;
  }
  const worker::WorkerError error = answer.error();
  failed.status = error.tag == "kernelopt.cuda" ? Status::kCrashed : Status::kRaised;
  failed.detail = error.message;
  return failed;
}

}  // namespace kernelopt::gate
