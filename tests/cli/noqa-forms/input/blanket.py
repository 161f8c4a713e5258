import cuspatial
import cuxfilter
# gpulint: noqa
