"""Drape a cloth over a sphere with warp.sim, written for Warp 1.9.

Warp 1.10 removed warp.sim (Newton replaces it), wp.select and the
wp.matrix(pos, quat, scale) form, so this script no longer runs on a current Warp.
"""
import warp as wp
import warp.sim
import warp.sim.render


@wp.kernel
def clamp_height(q: wp.array(dtype=wp.vec3), floor: float):
    i = wp.tid()
    p = q[i]
    # select(cond, value_if_false, value_if_true)
    q[i] = wp.vec3(p[0], wp.select(p[1] < floor, p[1], floor), p[2])


@wp.kernel
def sphere_transform(center: wp.vec3, radius: float, out: wp.array(dtype=wp.mat44)):
    out[0] = wp.matrix(center, wp.quat_identity(), wp.vec3(radius, radius, radius))


def build_model():
    builder = wp.sim.ModelBuilder()
    builder.add_cloth_grid(
        pos=wp.vec3(0.0, 2.0, 0.0),
        rot=wp.quat_identity(),
        vel=wp.vec3(0.0, 0.0, 0.0),
        dim_x=64,
        dim_y=64,
        cell_x=0.05,
        cell_y=0.05,
        mass=0.1,
    )
    builder.add_shape_sphere(body=-1, pos=wp.vec3(0.0, 1.0, 0.0), radius=0.5)
    return builder.finalize()


def main(frames=120, substeps=8):
    model = build_model()
    integrator = wp.sim.SemiImplicitIntegrator()
    state_0, state_1 = model.state(), model.state()
    renderer = warp.sim.render.SimRenderer(model, "cloth.usd")
    dt = 1.0 / 60.0 / substeps
    for frame in range(frames):
        for _ in range(substeps):
            state_0.clear_forces()
            integrator.simulate(model, state_0, state_1, dt)
            state_0, state_1 = state_1, state_0
        wp.launch(clamp_height, dim=model.particle_count, inputs=[state_0.particle_q, 0.0])
        renderer.begin_frame(frame * dt * substeps)
        renderer.render(state_0)
        renderer.end_frame()
    renderer.save()


if __name__ == "__main__":
    main()
