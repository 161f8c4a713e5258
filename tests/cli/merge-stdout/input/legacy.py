import cuspatial
import cuxfilter
