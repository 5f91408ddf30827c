"""llama.cpp (llama-cpp-python, optional, not in any extra) on the gemma GGUF: the few-shot prompt of sit's llm
translator, greedy, one text at a time, 1 and 2 threads; prints seconds (docs/benchmarks.md). Needs
the GGUF at /tmp/llm/gemma-3-270m-q4_k_m.gguf or GEMMA_GGUF."""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from llama_cpp import Llama  # noqa: E402  (the llamacpp extra: a source build, not installed by setup.sh or CI)

from sit.translators.llm import Prompt, few_shot  # noqa: E402
texts = [l for l in open("datasets/news.txt").read().splitlines() if l.strip()][:8]
prompt = Prompt.of(False, few_shot("en", "es"), "en", "es")
for threads in (1, 2):
    llm = Llama(os.environ.get("GEMMA_GGUF", "/tmp/llm/gemma-3-270m-q4_k_m.gguf"), n_threads=threads, n_ctx=512, verbose=False)
    start, cpu = time.perf_counter(), time.process_time()
    outs = [llm(prompt.fill(t), max_tokens=80, temperature=0.0, stop=["\n"])["choices"][0]["text"].strip() for t in texts]
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"llama.cpp": "0.3.36", "threads": threads, "texts": len(texts), "seconds": round(took, 1),
                      "cpu_s": round(cpu, 1), "load_average": round(os.getloadavg()[0], 1)}), flush=True)
    for o in outs[:3]: print("   ", o[:120])
