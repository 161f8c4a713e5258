import cuxfilter
