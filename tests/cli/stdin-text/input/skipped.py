# gpulint: skip-file
import cuspatial
