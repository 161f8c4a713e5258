import cuspatial
x = 1import cuxfilter
