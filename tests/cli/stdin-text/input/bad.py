s = "ÿş cafÃ©"; import cuspatial
t = "ğŸš€"; import cuxfilter
	import warp.sim
