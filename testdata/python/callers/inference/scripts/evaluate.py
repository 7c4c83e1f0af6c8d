from inference import engines

evaluator = engines.make_engine("Qwen/Qwen3-8B", max_model_len=16384)
