package side

func init() {}
