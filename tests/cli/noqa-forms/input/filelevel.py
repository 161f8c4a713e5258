# gpulint: noqa: GPU102 (the whole file may keep cuSpatial)
import cuspatial
import cuxfilter
