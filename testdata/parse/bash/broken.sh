if [ -f x ]; then
  echo "missing fi"
for i in 1 2 3; do
  echo $((i +
done
case x in
