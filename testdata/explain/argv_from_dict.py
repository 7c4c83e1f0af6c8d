import subprocess

server_args = {"return-sampling-mask": True, "tensor-parallel-size": 2}
argv = ["vllm", "serve", "Qwen/Qwen3-4B"]
for key, value in server_args.items():
    if value is True:
        argv.append(f"--{key}")
    else:
        argv += [f"--{key}", str(value)]
subprocess.run(argv, check=True)
