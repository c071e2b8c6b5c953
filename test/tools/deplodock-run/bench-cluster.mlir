// deplodock-run --bench of a Kernel IR module whose kernel runs in
// thread-block clusters: the runtime launches it as any other (the cluster
// shape is compiled into it with __cluster_dims__), and the CPU reference
// runs the clusters' blocks together on the interpreter.
// RUN: deplodock-run --bench %S/../../Interpreter/Simt/cluster.mlir --func=exchange_host --fake-device --warmup-ms=0.1 --max-time-ms=1 | FileCheck %s
// RUN: %if runtime-nvrtc %{ deplodock-run --bench %S/../../Interpreter/Simt/cluster.mlir --func=exchange_host --fake-device --worker-arg=--fake-nvrtc --warmup-ms=0.1 --max-time-ms=1 | FileCheck %s %}
// CHECK: @exchange_host on Deplodock fake GPU
// CHECK: reference: 1 output checked against the CPU interpreter (max abs error 0)
// CHECK: 0   exchange {{.*}}[4,2,1]{{ +}}[64,1,1]
