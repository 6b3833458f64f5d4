void log_msg(const char *msg);
