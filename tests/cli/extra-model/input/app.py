import mygpu

buf = mygpu.empty(1024)
for step in range(100):
    total = mygpu.to_host(buf)
    first = buf.fetch()
summary = mygpu.to_host(buf)
