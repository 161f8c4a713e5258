import cuspatial
import warp as wp

builder = wp.sim.ModelBuilder()
import cuxfilter  # noqa: GPU103
