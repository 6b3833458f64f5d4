namespace Example.Util
{
    public static class Log
    {
        public static void Write(string msg) => System.Console.WriteLine(msg);
    }
}
