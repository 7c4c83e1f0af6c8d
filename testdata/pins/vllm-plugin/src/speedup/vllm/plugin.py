def register():
    # Patches EngineArgs and the CLI parser with SpeedupArgs' fields.
    from speedup.vllm import patches

    patches.apply()
