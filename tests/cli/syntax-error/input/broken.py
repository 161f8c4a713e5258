import cuspatial

def broken(:
    pass

import cuxfilter
