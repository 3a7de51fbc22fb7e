# Standalone: jnp.argmax / jnp.argmin when the input holds NaNs of both signs.
# python3 jax_argmax_nan_sign.py
import jax, jax.numpy as jnp, numpy as np
print("JAX", jax.__version__, "on", jax.devices()[0])
cases = [(np.float32, np.uint32, [0x00000000, 0x7FC00000, 0xFFC00000, 0x3F800000]),
         (np.float16, np.uint16, [0x0000, 0x7E00, 0xFE00, 0x3C00]),
         (np.float32, np.uint32, [0xFFC00000, 0x7FC00000]),
         (np.float32, np.uint32, [0x7FC00000, 0xFFC00000])]
for dt, ut, bits in cases:
    x = np.array(bits, dtype=ut).view(dt)
    first_nan = int(np.argmax(np.isnan(x)))
    print(f"{np.dtype(dt).name} {[hex(b) for b in bits]}: numpy argmax {np.argmax(x)} argmin {np.argmin(x)} (the first NaN: {first_nan}); "
          f"jnp.argmax {int(jnp.argmax(jnp.asarray(x)))} jnp.argmin {int(jnp.argmin(jnp.asarray(x)))}")
