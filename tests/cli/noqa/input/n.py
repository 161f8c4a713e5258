import cuspatial  # noqa: GPU102
import cuxfilter  # noqa
import warp.sim  # noqa: GPU999, E501
import cuspatial as cs  # NOQA:GPU101,GPU102
