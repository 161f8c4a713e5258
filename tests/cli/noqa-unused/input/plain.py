# no GPU library here: the meta pack's trigger word makes gpulint read it
value = 3  # noqa: GPU201
