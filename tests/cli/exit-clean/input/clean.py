import numpy as np
x = np.zeros(3)
# import cuspatial in a comment
s = "import cuspatial"
