"""`kernelopt bench --executor ray`: the Ray side of a bench run spread over a cluster.

The C++ head starts ``python -m kernelopt.ray_executor`` (the driver, ``__main__``) and speaks JSON
lines with it as with a worker: ``hello`` (is Ray importable), ``connect`` (join the cluster, name
its nodes and GPUs), ``submit`` (one Ray task per problem) and ``next`` (the next finished problem's
document). Each task (``task.run_problem``) runs the engine's own ``bench`` on one problem on the
node Ray placed it on and returns its document and files; the head alone writes the run folder and
its store. Ray is imported only here, so it stays optional.
"""
