"""One compilation per program for the whole run: JAX's compilation cache in a directory of the session.

Several files compile the same programs (the page's ``Env`` example, test_env.py's and the
check command's batches share a setup on purpose); with the cache, each is compiled once and
loaded the other times. ``ORIFLAMME_JAX_CACHE`` names a directory kept between runs instead
(JAX keys each entry by the program, its version and the device, so a kept cache is safe): a
rerun, or CI with the directory cached, then compiles nothing it compiled before.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _compile_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    try:
        import jax
    except ImportError:  # the tests skip themselves without JAX
        return
    kept = os.environ.get("ORIFLAMME_JAX_CACHE")
    jax.config.update("jax_compilation_cache_dir", kept or str(tmp_path_factory.mktemp("jax-cache")))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
